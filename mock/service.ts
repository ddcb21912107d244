/**
 * `createMockService`: one independent simulation of the whole service, with no HTTP library: state, clock,
 * helpers, and `dispatch` (a fetch `Request` in, a `Response` out) over the route table compiled once per
 * process. Several can live in one process; each has its own state, clock and helpers. It is served in-process
 * through `mock.fetch` (no HTTP library, no interception), through msw's `setupServer(...mswHandlers(mock))`
 * (the entry `inr-payouts/mock/msw`, so this entry never loads msw), or over `node:http` by the standalone
 * server (mock/server/).
 */
import { type ClientOptions, PayoutClient } from '../src/index.js';
import { type MockBundle, parseBundle, replayable } from './engine/bundle.js';
import type { Clock } from './engine/clock.js';
import { createServiceInternals, type ServiceInternals } from './engine/internals.js';
import type { Journal } from './engine/journal.js';
import { type MockServiceOptions, resolveOptions } from './engine/options.js';
import { createHelpers, type MockHelpers } from './helpers/index.js';
import { type VirtualClientClock, virtualClientClock } from './http/client-clock.js';
import { createExchangeDispatch, type DispatchOptions, type ExchangeDispatch } from './http/dispatch.js';
import { createMockFetch, type MockFetch } from './http/fetch.js';
import { notFoundRoute, pipelineModule } from './http/pipeline-module.js';
import { compileRoutes, type LocalRouteDefinition, type MockRouter } from './http/router.js';
import { createRecorder } from './observe/recorder.js';
import { type ReplaySummary, replayBundle } from './observe/replay.js';
import { initialState } from './operations/accounts.js';
import { createOverrides, type OperationId, type OverrideResolver } from './overrides.js';
import { modules } from './routes/index.js';
import type { AccountRecord } from './state/accounts.js';
import type { DeepReadonly, MockState } from './state/mock-state.js';

const allModules = [pipelineModule, ...modules];

/**
 * Every route of the service (API routes in module order, the storage, the API's catch-all) and `localRoutes`,
 * compiled into one router, and its dispatch.
 */
function compile(localRoutes?: readonly LocalRouteDefinition[]) {
  const router = compileRoutes({
    routes: allModules.flatMap((m) => m.routes),
    rawRoutes: allModules.flatMap((m) => m.rawRoutes ?? []),
    fallback: notFoundRoute,
    localRoutes,
  });
  return { router, dispatch: createExchangeDispatch(router) };
}

let compiled: ReturnType<typeof compile> | undefined;

/**
 * The service's routes and their dispatch, compiled once per process on the first request: importing the mock
 * does not pay for it.
 */
function routing(): ReturnType<typeof compile> {
  compiled ??= compile();
  return compiled;
}

/**
 * Runs the work a request made due at this moment (attempt 1 of a webhook an answer emitted) before the answer
 * goes back, on any clock, as a real service does it: in one place, so `mock.fetch`, msw and the standalone
 * server behave alike. It never waits for a receiver's answer, and leaves the work to a clock move under way
 * (an advance, a real-time tick), which runs it anyway: a receiver calling the mock from a delivery never waits.
 */
async function runDueWork(mock: ServiceInternals): Promise<void> {
  const next = mock.state.timers[0];
  if (!next || next.at > mock.state.clock.now || mock.queuedMoves > 0) return;
  try {
    await mock.engineClock.runDue({ wait: false });
  } catch (error) {
    // The answer is the request's and stands; a task that failed is reported as a real-time tick reports it.
    console.error('inr-payouts mock: a timer task failed:', error);
  }
}

/** What a dispatch serves a request as: an exchange of the service's, or a local route's answer. */
type Served = Awaited<ReturnType<ExchangeDispatch>>;

/** `dispatch`, then the due work (see {@link runDueWork}). */
async function serveThenRunDue(
  dispatch: ExchangeDispatch,
  mock: ServiceInternals,
  request: Request,
  options?: DispatchOptions,
): Promise<Served> {
  const served = await dispatch(mock, request, options);
  await runDueWork(mock);
  return served;
}

const responseOf = (served: Served): Response | undefined =>
  served instanceof Response ? served : served?.answer?.response;

/** The service's router (see {@link routing}). */
export const serviceRouter = (): MockRouter => routing().router;

/**
 * A dispatch over the service's routes and `localRoutes` (the standalone server's own, registered beside them in
 * one router), compiled once per call: a request's `Response`, `undefined` for a URL no route serves.
 */
export function dispatchWith(localRoutes: readonly LocalRouteDefinition[]) {
  const { router, dispatch } = compile(localRoutes);
  return {
    router,
    dispatch: async (mock: ServiceInternals, request: Request, options?: DispatchOptions) =>
      responseOf(await serveThenRunDue(dispatch, mock, request, options)),
  };
}

/** A running mock service. */
export interface MockService {
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
   * What the mock did, in memory and bounded (`JOURNAL_LIMIT`, the last 10,000 entries), outside the
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
   * validated, typed body and answers typed `data` (or a `Response`), or nothing to let the mock's own route answer.
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
  return mockServiceWithInternals(options);
}

/**
 * Creates a mock service (see {@link createMockService}) typed with its internals as well: the standalone
 * server and the test suite's checks hold one.
 */
export function mockServiceWithInternals(options: MockServiceOptions = {}): MockService & ServiceInternals {
  // A bundle is checked before anything is made: a bad one throws and leaves nothing behind.
  const bundle = options.replay === undefined ? undefined : replayable(parseBundle(options.replay));
  // A replay runs with the bundle's options, and with the budgets it is given; the profile is how answers are
  // shown, not part of the run a bundle recorded.
  const resolved = resolveOptions(
    bundle ? { ...bundle.options, budgets: options.budgets, profile: options.profile } : options,
  );
  const mock = createServiceInternals(resolved, initialState(resolved));
  for (const module of allModules) for (const task of module.tasks ?? []) mock.tasks.register(task);
  const recorder = createRecorder(mock);
  const helpers = createHelpers(mock);
  const unrecorded = recorder.wrapHelpers(helpers);
  const replayed = bundle
    ? replayBundle(
        {
          baseUrl: mock.options.baseUrl,
          recorder,
          // The replay records each request itself, to compare its answer with the recording's.
          dispatch: async (request) => {
            const served = await serveThenRunDue(routing().dispatch, mock, request, { recorded: false });
            return served instanceof Response ? undefined : served;
          },
          helper: (name) => unrecorded.get(name),
          clock: mock.engineClock,
        },
        bundle,
      )
    : Promise.resolve(undefined);
  const account = (): AccountRecord => {
    const found = mock.state.accounts.byId[mock.state.accounts.defaultId];
    if (!found) throw new Error('The mock state has no default account (was a foreign snapshot restored?)');
    return found;
  };
  const clock = recorder.wrapClock(mock.engineClock);
  const clientClock = virtualClientClock(clock);
  const baseUrl = mock.options.baseUrl;
  const dispatch = async (request: Request) =>
    responseOf(await serveThenRunDue(routing().dispatch, mock, request));
  const fetch = createMockFetch(baseUrl, dispatch);
  const overrides = createOverrides(mock.overrides);
  const publicFace = {
    baseUrl,
    dispatch,
    clock,
    bundle: () => helpers.bundle(),
    replayed,
    helpers,
    accounts: helpers.accounts,
    adopt(state: MockState) {
      mock.state = state;
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
    fetch,
    clientClock,
    // `clientOptions` override the key, the base URL and anything else (a `clock` of the caller's own too).
    createClient: (clientOptions?: ClientOptions) =>
      new PayoutClient({
        apiKey: account().keys.sandbox,
        baseUrl,
        clock: clientClock,
        fetch,
        ...clientOptions,
      }),
    override: overrides.set,
    clearOverrides: overrides.clear,
  };
  // One object: the public face is added to the internals' object, so its accessors stay accessors.
  const service = Object.defineProperties(mock, Object.getOwnPropertyDescriptors(publicFace)) as MockService &
    ServiceInternals;
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
