/**
 * `createMockService`: one independent simulation of the whole service, served in-process by MSW. Several
 * can live in one process; each has its own state, clock, handlers and helpers. The MSW part is a thin
 * adapter: one handler per service that hands every request under the base URL to the simulation's
 * dispatch (mock/simulation.ts, which knows nothing of MSW).
 */
import { type HttpHandler, http } from 'msw';
import type { ClientOptions } from '../src/core/options.js';
import type { PayoutClient } from '../src/index.js';
import { createMockClient } from './core/client.js';
import { type VirtualClientClock, virtualClientClock } from './core/client-clock.js';
import type { MockServiceOptions } from './core/options.js';
import type { RouteOverrides } from './core/route.js';
import { createOverrides, type OperationId, type OverrideResolver } from './overrides.js';
import { createMockSimulation, type MockSimulation } from './simulation.js';

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
export interface MockService extends MockSimulation {
  /**
   * MSW handlers: `setupServer(...mock.handlers)`, or `getResponse(mock.handlers, request)`. One handler
   * serves the whole API under `baseUrl`; a request it does not serve passes on to the next handler.
   */
  readonly handlers: HttpHandler[];
  /**
   * The virtual clock as a client clock (`now` is virtual time; `sleep(ms)` advances it by `ms`), for the
   * client's `clock` option.
   */
  readonly clientClock: VirtualClientClock;
  /**
   * A `PayoutClient` wired to this mock (its base URL and the default account's sandbox key) whose every wait
   * (retry back-off, a 429's wait, polling intervals, deadlines) runs on the virtual clock: a test that waits
   * for attribution or a 429 retry takes no real time. `options` override any of it.
   * @example
   * ```ts
   * import { setupServer } from 'msw/node';
   * import { createMockService } from 'inr-payouts/mock';
   *
   * const mock = createMockService();
   * const server = setupServer(...mock.handlers);
   * server.listen();
   * const client = mock.createClient();
   * const user = await client.users.create({ mobile: '9876543210' });
   * if (!user.userId.startsWith('usr_')) throw new Error('created on the mock');
   * server.close();
   * ```
   */
  createClient(options?: ClientOptions): PayoutClient;
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
  const routes: RouteOverrides = new Map();
  const simulation = createMockSimulation(options, routes);
  const overrides = createOverrides(routes);
  const base = new URL(simulation.baseUrl);
  const prefix = `${base.origin}${base.pathname.replace(/\/+$/, '')}`;
  // A custom predicate: a prefix test, rather than a path pattern msw would compile and match per request.
  const handler = http.all(
    ({ request }) => request.url.startsWith(prefix),
    ({ request }) => simulation.dispatch(request),
  );
  const clientClock = virtualClientClock(simulation.clock);
  return Object.assign(simulation, {
    handlers: [handler],
    clientClock,
    createClient: (clientOptions?: ClientOptions) => createMockClient(simulation, clientClock, clientOptions),
    override: overrides.set,
    clearOverrides: overrides.clear,
  });
}
