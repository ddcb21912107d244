/**
 * One simulation of the whole service, with no HTTP library: state, clock, helpers, and `dispatch` (a fetch
 * `Request` in, a `Response` out) over the route table compiled once per process. `createMockService` adds
 * the MSW adapter to it; the standalone server (mock/server/) serves it over `node:http`, so the server and
 * its bin never load MSW.
 */
import type { Clock } from './core/clock.js';
import { coreModule, notFoundRoute } from './core/core-module.js';
import { createDispatch } from './core/dispatch.js';
import type { Journal } from './core/journal.js';
import { type MockServiceOptions, resolveOptions } from './core/options.js';
import type { RouteOverrides } from './core/route.js';
import { compileRoutes, type MockRouter } from './core/router.js';
import { createRuntime } from './core/runtime.js';
import type { DeepReadonly, MockState } from './core/state.js';
import { modules } from './handlers/index.js';
import { createHelpers, type MockHelpers } from './helpers/index.js';
import type { AccountRecord } from './state/accounts.js';

const allModules = [coreModule, ...modules];

/**
 * Every route of the service (API routes in module order, the storage, the API's catch-all), compiled once.
 * @example
 * serviceRouter.allowed('/v2/users'); // ['POST']
 */
export const serviceRouter: MockRouter = compileRoutes({
  routes: allModules.flatMap((m) => m.routes),
  rawRoutes: allModules.flatMap((m) => m.rawRoutes ?? []),
  fallback: notFoundRoute,
});

const dispatch = createDispatch(serviceRouter);

/**
 * A running simulation: what a `MockService` is without its MSW handlers.
 * @example
 * const response = await simulation.dispatch(new Request(`${simulation.baseUrl}/v2/account`));
 */
export interface MockSimulation {
  /** Where the service answers. */
  readonly baseUrl: string;
  /**
   * Answers one request with no HTTP library in between (what the MSW handler and the standalone server
   * call): `undefined` when the URL is not under `baseUrl` or names no route of the service.
   */
  dispatch(request: Request): Promise<Response | undefined>;
  readonly clock: Clock;
  /**
   * What the simulation did, in memory and bounded (`JOURNAL_LIMIT`, the last 10,000 entries), outside the
   * state and its snapshots: `mock.journal.entries({ type, userId, transactionId, since })`.
   */
  readonly journal: Journal;
  readonly helpers: MockHelpers;
  /** Same as `helpers.accounts`. */
  readonly accounts: MockHelpers['accounts'];
  /** The live state, read-only (change it through the API or the helpers). */
  readonly state: DeepReadonly<MockState>;
  /**
   * Makes `state` the live state as it is, not copied: for a state just read and checked (`checkState`),
   * with null-prototype collections (`withKeyedCollections`), that nothing else holds. The state file's
   * loader uses it, where `helpers.restore` (which checks and copies) would cost seconds at 100,000
   * transactions.
   */
  adopt(state: MockState): void;
  /** The default account's id, sandbox key, live key and webhook secret. */
  readonly accountId: string;
  readonly sandboxKey: string;
  readonly liveKey: string;
  readonly webhookSecret: string;
}

/**
 * Creates a simulation with one default account. `overrides` (what `mock.override` fills) answer single routes
 * before the simulation does.
 * @example
 * const simulation = createMockSimulation({ seed: 'team', baseUrl: 'http://127.0.0.1:4010' });
 */
export function createMockSimulation(
  options: MockServiceOptions = {},
  overrides: RouteOverrides = new Map(),
): MockSimulation {
  const rt = createRuntime(resolveOptions(options), overrides);
  for (const module of allModules) for (const task of module.tasks ?? []) rt.tasks.register(task);
  const helpers = createHelpers(rt);
  const account = (): AccountRecord => {
    const found = rt.state.accounts.byId[rt.state.accounts.defaultId];
    if (!found) throw new Error('The mock state has no default account (was a foreign snapshot restored?)');
    return found;
  };
  return {
    baseUrl: rt.options.baseUrl,
    dispatch: (request) => dispatch(rt, request),
    clock: rt.clock,
    journal: rt.journal,
    helpers,
    accounts: helpers.accounts,
    get state() {
      return rt.state;
    },
    adopt(state) {
      rt.state = state;
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
