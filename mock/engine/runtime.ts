/**
 * The live parts of one service instance: the state (replaced on reset and restore, so everything reads
 * `runtime.state` afresh), its options, its tasks and clock, and the idempotency keys in flight.
 */
import { emptyAccounts } from '../state/accounts.js';
import { emptyHttp } from '../state/http.js';
import { emptyKyc } from '../state/kyc.js';
import type { MockState } from '../state/mock-state.js';
import { emptyTransactions } from '../state/transactions.js';
import { emptyUsers } from '../state/users.js';
import { emptyVerification } from '../state/verification.js';
import { emptyWebhooks } from '../state/webhooks.js';
import { type Clock, createClock } from './clock.js';
import { seedToInt } from './ids.js';
import { bindJournal, createJournal, type Journal } from './journal.js';
import { journalFeed } from './journal-feed.js';
import type { ResolvedOptions } from './options.js';
import type { RouteOverrides } from './route.js';
import { bindStream, createStream, type Stream } from './stream.js';
import { createTaskRegistry, type TaskRegistry } from './tasks.js';

/** One service's runtime. */
export interface MockRuntime {
  state: MockState;
  readonly options: ResolvedOptions;
  readonly tasks: TaskRegistry;
  readonly clock: Clock;
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

/** A runtime starting from `start` (`initialState` in `mock/operations/accounts.ts`), with an empty task registry. */
export function createRuntime(
  options: ResolvedOptions,
  start: MockState,
  overrides: RouteOverrides = new Map(),
): MockRuntime {
  const journal = createJournal({ budgetBytes: options.budgets.journalBytes });
  const stream = createStream();
  let state = start;
  const bind = (next: MockState) => {
    bindJournal(next, journal);
    bindStream(next, stream);
  };
  bind(state);
  stream.subscribe(journalFeed(journal, () => state));
  const partial = {
    overrides,
    // An accessor so a reset or restore, which replace the state, keep writing to the same journal and stream.
    get state() {
      return state;
    },
    set state(next: MockState) {
      bind(next);
      state = next;
    },
    options,
    journal,
    stream,
    tasks: createTaskRegistry(),
    inflight: new Map<string, Promise<unknown>>(),
    background: new Map<Promise<unknown>, number>(),
  };
  const runtime = partial as MockRuntime;
  // The clock needs the runtime it belongs to.
  Object.assign(runtime, { clock: createClock(runtime) });
  return runtime;
}
