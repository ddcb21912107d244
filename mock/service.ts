/**
 * `createMockService`: one independent simulation of the whole service. Several can live in one process;
 * each has its own state, clock, handlers and helpers.
 */
import type { HttpHandler } from 'msw';
import type { Clock } from './core/clock.js';
import { coreModule, notFoundRoute } from './core/core-module.js';
import { type MockServiceOptions, resolveOptions } from './core/options.js';
import { toMswHandler } from './core/pipeline.js';
import { createRuntime } from './core/runtime.js';
import type { DeepReadonly, MockState } from './core/state.js';
import { modules } from './handlers/index.js';
import { createHelpers, type MockHelpers } from './helpers/index.js';
import { createOverrides, type OperationId, type OverrideResolver } from './overrides.js';
import type { AccountRecord } from './state/accounts.js';

/**
 * A running mock service.
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createMockService } from 'inr-payouts/mock';
 *
 * const mock = createMockService();
 * const server = setupServer(...mock.handlers);
 * server.listen();
 * const post = () =>
 *   fetch(`${mock.baseUrl}/v2/users`, {
 *     method: 'POST',
 *     headers: { Authorization: `Bearer ${mock.sandboxKey}`, 'Idempotency-Key': 'create-asha' },
 *     body: JSON.stringify({ mobile: '9876543210' }),
 *   });
 *
 * // The user is created, but the answer is lost on the way back.
 * mock.helpers.faults.inject({ match: { path: '/v2/users' }, kind: 'drop-after-commit' });
 * await post().catch(() => 'network error');
 * const retry = await post(); // 200 with Idempotent-Replayed: true, the same user
 * if (retry.headers.get('Idempotent-Replayed') !== 'true') throw new Error('expected a replay');
 *
 * const before = mock.helpers.snapshot();
 * mock.helpers.reset();
 * mock.helpers.restore(before);
 * server.close();
 * ```
 */
export interface MockService {
  /** Where the handlers answer. */
  readonly baseUrl: string;
  /** MSW handlers: `setupServer(...mock.handlers)`, or `getResponse(mock.handlers, request)`. */
  readonly handlers: HttpHandler[];
  readonly clock: Clock;
  readonly helpers: MockHelpers;
  /**
   * Overrides one operation for this service until the returned function is called: `resolver` gets the
   * validated, typed body and answers typed `data` (or a `Response`), or nothing to let the simulation answer.
   * @example
   * ```ts
   * const stop = mock.override('account.retrieveCredit', () => ({
   *   data: { prefundedEnabled: true, creditLimitUsd: '500', outstandingUsd: '0', availableUsd: '500' },
   * }));
   * stop();
   * ```
   */
  override<Id extends OperationId>(operationId: Id, resolver: OverrideResolver<Id>): () => void;
  /** Removes every override. */
  clearOverrides(): void;
  /** Same as `helpers.accounts`. */
  readonly accounts: MockHelpers['accounts'];
  /** The live state, read-only (change it through the API or the helpers). */
  readonly state: DeepReadonly<MockState>;
  /** The default account's id, sandbox key, live key and webhook secret. */
  readonly accountId: string;
  readonly sandboxKey: string;
  readonly liveKey: string;
  readonly webhookSecret: string;
}

/**
 * Creates a mock service with one default account.
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createMockService } from 'inr-payouts/mock';
 *
 * const mock = createMockService({ seed: 'my-tests' });
 * const server = setupServer(...mock.handlers);
 * server.listen();
 *
 * const headers = { Authorization: `Bearer ${mock.sandboxKey}`, 'Content-Type': 'application/json' };
 * const created = await fetch(`${mock.baseUrl}/v2/users`, {
 *   method: 'POST',
 *   headers,
 *   body: JSON.stringify({ mobile: '9876543210' }),
 * });
 * const { data: user } = await created.json(); // 201
 *
 * await fetch(`${mock.baseUrl}/v2/users/${user.userId}/verify/mobile/send`, { method: 'POST', headers });
 * const { otp } = mock.helpers.otp.read({ userId: user.userId, channel: 'mobile' });
 * const confirmed = await fetch(`${mock.baseUrl}/v2/users/${user.userId}/verify/mobile/confirm`, {
 *   method: 'POST',
 *   headers,
 *   body: JSON.stringify({ otp }),
 * });
 * if (confirmed.status !== 200) throw new Error('the OTP should verify the mobile');
 *
 * await mock.clock.advance('24h'); // idempotency keys made today are forgotten now
 * server.close();
 * ```
 */
export function createMockService(options: MockServiceOptions = {}): MockService {
  const rt = createRuntime(resolveOptions(options));
  const all = [coreModule, ...modules];
  for (const module of all) for (const task of module.tasks ?? []) rt.tasks.register(task);
  const overrides = createOverrides();
  const handlers = [
    ...[...all.flatMap((m) => m.routes).map(overrides.wrap), notFoundRoute].map((def) =>
      toMswHandler(def, rt),
    ),
    ...all.flatMap((m) => m.handlers?.(rt) ?? []),
  ];
  const helpers = createHelpers(rt);
  const account = (): AccountRecord => {
    const found = rt.state.accounts.byId[rt.state.accounts.defaultId];
    if (!found) throw new Error('The mock state has no default account (was a foreign snapshot restored?)');
    return found;
  };
  return {
    baseUrl: rt.options.baseUrl,
    handlers,
    clock: rt.clock,
    helpers,
    override: overrides.set,
    clearOverrides: overrides.clear,
    accounts: helpers.accounts,
    get state() {
      return rt.state;
    },
    get accountId() {
      return account().id;
    },
    get sandboxKey() {
      return account().keys.sandbox;
    },
    get liveKey() {
      return account().keys.live;
    },
    get webhookSecret() {
      return account().webhookSecret;
    },
  };
}
