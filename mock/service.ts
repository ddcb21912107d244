/**
 * `createMockService`: one independent simulation of the whole service, served in-process: through
 * `mock.fetch` (no HTTP library, no interception) or through msw's `setupServer(...mswHandlers(mock))`.
 * Several can live in one process; each has its own state, clock and helpers. Both are thin adapters over the
 * simulation's dispatch (mock/simulation.ts, which knows nothing of either); the msw one is the entry
 * `inr-payouts/mock/msw` (mock/msw/), so this entry never loads msw.
 */
import type { ClientOptions } from '../src/core/options.js';
import type { PayoutClient } from '../src/index.js';
import type { MockServiceOptions } from './engine/options.js';
import type { RouteOverrides } from './engine/route.js';
import { createMockClient } from './http/client.js';
import { type VirtualClientClock, virtualClientClock } from './http/client-clock.js';
import { createMockFetch, type MockFetch } from './http/fetch.js';
import { createOverrides, type OperationId, type OverrideResolver } from './overrides.js';
import { createServedSimulation, type MockSimulation } from './simulation.js';

/** A running mock service. */
export interface MockService extends MockSimulation {
  /**
   * A WHATWG `fetch` that this mock answers in-process, with no interception and no msw: give it to the
   * client (`new PayoutClient({ fetch: mock.fetch, ... })`, which `createClient()` does) or to any library
   * that takes a `fetch`. A URL outside `baseUrl` rejects: it never reaches the network. The set-up for
   * Jest's default CommonJS mode, `node:test`, Bun and Deno.
   * @example
   * ```ts
   * import { createMockService } from 'inr-payouts/mock';
   *
   * const mock = createMockService();
   * const response = await mock.fetch(`${mock.baseUrl}/v2/account`, {
   *   headers: { Authorization: `Bearer ${mock.sandboxKey}` },
   * });
   * if (response.status !== 200) throw new Error('the mock answers without msw');
   * ```
   */
  readonly fetch: MockFetch;
  /**
   * The virtual clock as a client clock (`now` is virtual time; `sleep(ms)` advances it by `ms`), for the
   * client's `clock` option.
   */
  readonly clientClock: VirtualClientClock;
  /**
   * A `PayoutClient` wired to this mock (its base URL, the default account's sandbox key, and `fetch`, so no
   * msw is needed) whose every wait (retry back-off, a 429's wait, polling intervals, deadlines) runs on the
   * virtual clock: a test that waits for attribution or a 429 retry takes no real time. `options` override any
   * of it (`fetch: globalThis.fetch` sends it through msw's interception instead).
   * @example
   * ```ts
   * import { createMockService } from 'inr-payouts/mock';
   *
   * const mock = createMockService();
   * const client = mock.createClient();
   * const user = await client.users.create({ mobile: '9876543210' });
   * if (!user.userId.startsWith('usr_')) throw new Error('created on the mock');
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
 * import { mswHandlers } from 'inr-payouts/mock/msw';
 *
 * const mock = createMockService({ seed: 'my-tests' });
 * const server = setupServer(...mswHandlers(mock));
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
  const served = createServedSimulation(options, routes);
  const { simulation } = served;
  const overrides = createOverrides(routes);
  const clientClock = virtualClientClock(simulation.clock);
  const fetch = createMockFetch(simulation.baseUrl, simulation.dispatch);
  const service = Object.assign(simulation, {
    fetch,
    clientClock,
    createClient: (clientOptions?: ClientOptions) =>
      createMockClient(simulation, clientClock, { fetch, ...clientOptions }),
    override: overrides.set,
    clearOverrides: overrides.clear,
  });
  // Not enumerable and not typed: only a project written for the former `mock.handlers` reads it, and learns
  // where the handlers are now instead of spreading `undefined`.
  return Object.defineProperty(service, 'handlers', {
    get: (): never => {
      throw new Error(
        "mock.handlers moved to the entry 'inr-payouts/mock/msw', so that only tests using msw load it: " +
          "import { mswHandlers } from 'inr-payouts/mock/msw' and pass mswHandlers(mock) where mock.handlers " +
          'was (setupServer(...mswHandlers(mock))). Without msw, give the client mock.fetch (mock.createClient()).',
      );
    },
  });
}
