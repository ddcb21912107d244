/**
 * One simulation of the whole service, with no HTTP library: state, clock, helpers, and `dispatch` (a fetch
 * `Request` in, a `Response` out) over the route table compiled once per process. `createMockService` adds
 * the MSW adapter to it; the standalone server (mock/server/) serves it over `node:http`, so the server and
 * its bin never load MSW.
 */
import { type MockBundle, parseBundle, replayable } from './engine/bundle.js';
import type { Clock } from './engine/clock.js';
import type { Exchange } from './engine/exchange.js';
import type { Journal } from './engine/journal.js';
import { type MockServiceOptions, resolveOptions } from './engine/options.js';
import type { RouteOverrides } from './engine/route.js';
import { createRuntime } from './engine/runtime.js';
import { createHelpers, type MockHelpers } from './helpers/index.js';
import { createExchangeDispatch, type ExchangeDispatch } from './http/dispatch.js';
import { notFoundRoute, pipelineModule } from './http/pipeline-module.js';
import { compileRoutes, type MockRouter } from './http/router.js';
import { createRecorder } from './observe/recorder.js';
import { type ReplaySummary, replayBundle } from './observe/replay.js';
import { initialState } from './operations/accounts.js';
import { modules } from './routes/index.js';
import type { AccountRecord } from './state/accounts.js';
import type { DeepReadonly, MockState } from './state/mock-state.js';

const allModules = [pipelineModule, ...modules];

let compiled: { router: MockRouter; dispatch: ExchangeDispatch } | undefined;

/**
 * Every route of the service (API routes in module order, the storage, the API's catch-all) and its dispatch,
 * compiled once per process on the first request: importing the mock does not pay for it.
 */
function routing(): NonNullable<typeof compiled> {
  if (!compiled) {
    const router = compileRoutes({
      routes: allModules.flatMap((m) => m.routes),
      rawRoutes: allModules.flatMap((m) => m.rawRoutes ?? []),
      fallback: notFoundRoute,
    });
    compiled = { router, dispatch: createExchangeDispatch(router) };
  }
  return compiled;
}

/** The service's route table (see {@link routing}). */
export const serviceRouter = (): MockRouter => routing().router;

/** A running simulation: what a `MockService` is without its MSW handlers. */
export interface MockSimulation {
  /** Where the service answers. */
  readonly baseUrl: string;
  /**
   * Answers one request with no HTTP library in between (what `mock.fetch` and the MSW handler call; the
   * standalone server serves the same exchanges): `undefined` when the URL is not under `baseUrl` or names no
   * route of the service.
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
   * Every input this service took so far (options, requests, helper calls, clock moves, webhook receivers'
   * answers) as one JSON-ready replay bundle: `createMockService({ replay: bundle })` or
   * `inr-payouts-mock --replay bundle.json` rebuilds the same state, journal and webhook bodies.
   * @example
   * ```ts
   * const file = JSON.stringify(mock.bundle()); // what a partner attaches to a support question
   * console.log(file.length > 0); // true
   * ```
   */
  bundle(): MockBundle;
  /**
   * Resolves when the replay this service was made with has run (at once, with `undefined`, without one).
   * @example
   * ```ts
   * import { createMockService } from 'inr-payouts/mock';
   * const copy = createMockService({ replay: mock.bundle() });
   * await copy.replayed;
   * ```
   */
  readonly replayed: Promise<ReplaySummary | undefined>;
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
 */
export function createMockSimulation(
  options: MockServiceOptions = {},
  overrides: RouteOverrides = new Map(),
): MockSimulation {
  return createServedSimulation(options, overrides).simulation;
}

/** A simulation and its dispatch to whole exchanges (the standalone server writes an answer's text from them). */
export interface ServedSimulation {
  simulation: MockSimulation;
  serve(request: Request): Promise<Exchange | undefined>;
}

/** Creates a simulation (see {@link createMockSimulation}) with its exchange-level dispatch. */
export function createServedSimulation(
  options: MockServiceOptions = {},
  overrides: RouteOverrides = new Map(),
): ServedSimulation {
  // A bundle is checked before anything is made: a bad one throws and leaves nothing behind.
  const bundle = options.replay === undefined ? undefined : replayable(parseBundle(options.replay));
  // A replay runs with the bundle's options, and with the budgets it is given; the profile is how answers are
  // shown, not part of the run a bundle recorded.
  const resolved = resolveOptions(
    bundle ? { ...bundle.options, budgets: options.budgets, profile: options.profile } : options,
  );
  const rt = createRuntime(resolved, initialState(resolved), overrides);
  for (const module of allModules) for (const task of module.tasks ?? []) rt.tasks.register(task);
  const recorder = createRecorder(rt);
  const helpers = createHelpers(rt);
  const unrecorded = recorder.wrapHelpers(helpers);
  const serve = (request: Request) => routing().dispatch(rt, request);
  const replayed = bundle
    ? replayBundle(
        {
          baseUrl: rt.options.baseUrl,
          recorder,
          // The replay records each request itself, to compare its answer with the recording's.
          dispatch: (request) => routing().dispatch(rt, request, false),
          helper: (name) => unrecorded.get(name)?.(),
          clock: rt.clock,
        },
        bundle,
      )
    : Promise.resolve(undefined);
  const account = (): AccountRecord => {
    const found = rt.state.accounts.byId[rt.state.accounts.defaultId];
    if (!found) throw new Error('The mock state has no default account (was a foreign snapshot restored?)');
    return found;
  };
  const simulation: MockSimulation = {
    baseUrl: rt.options.baseUrl,
    dispatch: async (request) => (await serve(request))?.answer?.response,
    clock: recorder.wrapClock(rt.clock),
    bundle: () => helpers.bundle(),
    replayed,
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
  return { simulation, serve };
}
