/**
 * What the mock's own modules (routes, operations, policies, helpers, tasks) use of a running `MockService`:
 * the same object, typed for them. The state is replaced on reset and restore, so everything reads
 * `state` afresh; the journal, the stream and the rest belong to the service and outlive any state.
 */
import { emptyAccounts } from '../state/accounts.js';
import { emptyHttp } from '../state/http.js';
import { emptyKyc } from '../state/kyc.js';
import type { MockState } from '../state/mock-state.js';
import { emptyTransactions } from '../state/transactions.js';
import { emptyUsers } from '../state/users.js';
import { emptyVerification } from '../state/verification.js';
import { emptyWebhooks } from '../state/webhooks.js';
import type { KeyHolder } from './accounts.js';
import type { MockBundle } from './bundle.js';
import { type Clock, createClock } from './clock.js';
import { seedToInt } from './ids.js';
import { createJournal, type Journal } from './journal.js';
import { journalFeed } from './journal-feed.js';
import type { ResolvedOptions } from './options.js';
import type { RouteOverrides } from './route.js';
import { createStream, type Stream } from './stream.js';
import type { ServiceTap } from './taps.js';
import { createTaskRegistry, type TaskRegistry } from './tasks.js';

/** The `fetch` a webhook delivery uses; a test may replace it to answer in-process. */
export type WebhookFetch = (url: string, init: RequestInit) => Promise<Response>;

/** A `MockService` as the mock's own modules see it. */
export interface ServiceInternals {
  state: MockState;
  readonly options: ResolvedOptions;
  readonly tasks: TaskRegistry;
  /** The virtual clock as tasks and helpers drive it: `clock`, the partner's, records each move besides. */
  readonly engineClock: Clock;
  /** Idempotency keys whose request is executing; never persisted, it does not outlive a request. */
  readonly inflight: Map<string, Promise<unknown>>;
  /**
   * Work tasks started outside the clock's critical path (webhook POSTs in flight), each with the real-time
   * deadline (epoch ms) until which the clock waits for it (`mock/engine/clock.ts`); each removes itself.
   */
  readonly background: Map<Promise<unknown>, number>;
  /** Per-test answers of single routes, keyed `METHOD path` (`mock.override`); empty in normal use. */
  readonly overrides: RouteOverrides;
  /** What the service did (`mock/engine/journal.ts`): in memory, bounded, outside the state. */
  readonly journal: Journal;
  /** Each exchange and transition, as it happens (`mock/engine/stream.ts`); the journal is its first subscriber. */
  readonly stream: Stream;
  /** Where the recorder listens in (`mock/engine/taps.ts`), once there is one. */
  tap: ServiceTap | undefined;
  /** The recording's bundle (`mock/observe/recorder.ts`), once there is a recorder. */
  recording: { bundle(): MockBundle } | undefined;
  /** The fetch of webhook deliveries a test put in (`helpers.webhooks.useFetch`); the global one otherwise. */
  webhookFetch: WebhookFetch | undefined;
  /** Clock moves queued and not yet finished. */
  queuedMoves: number;
  /** The last API key found (`findAccountByKey`): most requests carry the key the one before did. */
  lastKey: { key: string; found: KeyHolder } | undefined;
}

/** A fresh state with no accounts, at `startMs` on the virtual clock. */
export function createEmptyState(seed: string, startMs: number): MockState {
  return {
    version: 1,
    seed,
    rng: seedToInt(seed),
    clock: { now: startMs, timerSeq: 0 },
    timers: [],
    accounts: emptyAccounts(),
    users: emptyUsers(),
    verification: emptyVerification(),
    kyc: emptyKyc(),
    transactions: emptyTransactions(),
    webhooks: emptyWebhooks(),
    http: emptyHttp(),
  };
}

/**
 * The internals of a service starting from `start` (`initialState` in `mock/operations/accounts.ts`), with an
 * empty task registry; `createMockService` adds the public face to the same object.
 */
export function createServiceInternals(options: ResolvedOptions, start: MockState): ServiceInternals {
  const journal = createJournal(options.budgets.journalBytes);
  const stream = createStream();
  const overrides: RouteOverrides = new Map();
  const partial = {
    state: start,
    overrides,
    options,
    journal,
    stream,
    tasks: createTaskRegistry(),
    inflight: new Map<string, Promise<unknown>>(),
    background: new Map<Promise<unknown>, number>(),
    tap: undefined,
    recording: undefined,
    webhookFetch: undefined,
    queuedMoves: 0,
    lastKey: undefined,
  };
  const service = partial as ServiceInternals;
  // The clock needs the service it belongs to.
  Object.assign(service, { engineClock: createClock(service) });
  stream.subscribe(journalFeed(journal, () => service.state));
  return service;
}
