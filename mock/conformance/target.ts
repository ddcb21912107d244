/**
 * One side of a run: where it sends (an in-process mock, or a base URL), with which key, through which recording
 * and paced `fetch`, and with which helpers. `scenarioTarget` gives each scenario a fresh observation list.
 */
import { APIConnectionError, APIError, type ClientClock, PayoutClient } from '../../src/index.js';
import { connectMock, type MockHelperCalls } from '../connect.js';
import { type AttemptPolicy, sendWithRetries, TargetUnavailable } from './attempts.js';
import { ConformanceError } from './errors.js';
import type { GuidedSide } from './guided.js';
import type { Pacer } from './pace.js';
import { recordingFetch } from './record.js';
import type { Observation, Scenario, ScenarioTarget, Side, StepOptions } from './types.js';

/** What a scenario throws to be skipped. */
export class ScenarioSkipped extends Error {
  override readonly name = 'ScenarioSkipped';
  /** Why, as data: the target has not the mock's helpers, or the scenario's own reason. */
  constructor(
    message: string,
    readonly need: 'helpers' | 'scenario' = 'scenario',
  ) {
    super(message);
  }
}

/** A side of the run, before any scenario. */
export interface SideSetup {
  side: Side;
  baseUrl: string;
  apiKey: string;
  /** The un-recorded transport. */
  send: typeof fetch;
  pacer: Pacer;
  helpers: MockHelperCalls | undefined;
  /** The client's clock (an in-process mock's virtual one); default real time. */
  clock?: ClientClock;
  /**
   * The target's side only: how each request is tried, and the last request the target stayed unavailable for
   * (reset before each scenario), however deep in a client or helper call the failure was met.
   */
  attempts?: { policy: AttemptPolicy; failed?: TargetUnavailable };
  /** A guided run's side (`--guided`). */
  guided?: GuidedSide;
}

/** What the two sides of one run share: its prefix, and the counter behind new mobile numbers and names. */
export interface RunNames {
  prefix: string;
  next(): number;
  /** Ten digits starting 9, distinct for every call in this run and, by their random start, from other runs. */
  mobileBase: number;
}

/** The run's naming: `prefix` and a random mobile base. */
export function runNames(prefix: string): RunNames {
  const random = new Uint32Array(1);
  crypto.getRandomValues(random);
  let count = 0;
  return { prefix, mobileBase: (random[0] ?? 0) % 900_000_000, next: () => ++count };
}

/**
 * The target one scenario gets on one side, writing into `log`. The mobile numbers and names a scenario makes
 * follow the same sequence on both sides (the sides run the same code), so the two sides stay parallel.
 */
export function scenarioTarget(
  setup: SideSetup,
  run: RunNames,
  log: Observation[],
  scenario: Pick<Scenario, 'id' | 'tier'>,
): ScenarioTarget {
  let atLimit = false;
  const { attempts } = setup;
  const fetcher = recordingFetch(
    setup.send,
    setup.baseUrl,
    setup.pacer,
    log,
    attempts && {
      policy: attempts.policy,
      limitExpected: () => atLimit,
      unavailable: (error) => {
        attempts.failed = error;
      },
    },
    scenario.tier === 'read-only' ? { apiKey: setup.apiKey, scenario: scenario.id } : undefined,
  );
  const client = new PayoutClient({
    apiKey: setup.apiKey,
    baseUrl: setup.baseUrl,
    fetch: fetcher,
    // One attempt per call: a retry would hide the answer being compared.
    maxRetries: 0,
    logLevel: 'off',
    ...(setup.clock ? { clock: setup.clock } : {}),
  });
  let mobiles = 0;
  let names = 0;
  // Each side counts its own calls, so the same scenario code gives the same numbers on both.
  const sequence = run.next();
  const base = run.mobileBase + sequence * 1_000;
  const skip = (reason: string, cause?: 'helpers'): never => {
    throw new ScenarioSkipped(reason, cause);
  };
  return {
    side: setup.side,
    client,
    fetch: fetcher,
    baseUrl: setup.baseUrl,
    apiKey: setup.apiKey,
    prefix: run.prefix,
    helpers: setup.helpers,
    guided: setup.guided,
    step(label: string, value: unknown, options: StepOptions = {}) {
      log.push({ kind: 'step', label, value: structuredClone(value), compare: options.compare ?? 'value' });
    },
    skip: (reason: string) => skip(reason),
    needHelpers(what: string) {
      return (
        setup.helpers ??
        skip(`${what} needs the mock's test helpers (/__mock), which this target has not`, 'helpers')
      );
    },
    newMobile() {
      mobiles += 1;
      return `9${String((base + mobiles) % 1_000_000_000).padStart(9, '0')}`;
    },
    name(what: string) {
      names += 1;
      return `${run.prefix}${what}-${sequence}-${names}`;
    },
    async refused<T>(call: PromiseLike<T>): Promise<T | undefined> {
      try {
        return await call;
      } catch (error) {
        // An answer the service gave is on the wire, and compared there; anything else stops the scenario.
        if (error instanceof APIError && !(error instanceof APIConnectionError) && error.status !== undefined)
          return undefined;
        throw error;
      }
    },
    async atLimit<T>(call: () => Promise<T>): Promise<T> {
      atLimit = true;
      try {
        return await call();
      } finally {
        atLimit = false;
      }
    },
  };
}

/**
 * The `fetch` the target's helpers are called through: the same time-out and transient retries as its API, a
 * request that stays unavailable noted on the side.
 */
export function retryingFetch(send: typeof fetch, setup: Pick<SideSetup, 'attempts'>): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const { attempts } = setup;
    if (!attempts) return send(request);
    const label = `${request.method} ${new URL(request.url).pathname}`;
    try {
      return await sendWithRetries(send, request, attempts.policy, { label });
    } catch (error) {
      if (error instanceof TargetUnavailable) attempts.failed = error;
      throw error;
    }
  };
}

/** Statuses that say "no such thing here": a service without the mock's helpers. */
const NO_HELPERS = new Set([401, 403, 404, 405, 410]);

/**
 * Whether the service at `baseUrl` has the mock's test helpers: `GET /__mock` answers the helper list. The
 * first request of a run: a target that does not answer fails the run at once (nothing is there to wait for);
 * a transient failure is retried, and one that stays is no answer, never "no helpers".
 */
export async function probeHelpers(
  baseUrl: string,
  send: typeof fetch,
  pacer: Pacer,
  policy: AttemptPolicy,
  helperFetch: typeof fetch,
): Promise<MockHelperCalls | undefined> {
  const root = baseUrl.replace(/\/+$/, '');
  await pacer.next();
  let response: Response;
  try {
    const request = new Request(`${root}/__mock`, { headers: { accept: 'application/json' } });
    response = await sendWithRetries(send, request, policy, { label: 'GET /__mock', once: true });
  } catch (error) {
    if (!(error instanceof TargetUnavailable)) throw error;
    // An answer that kept failing says the target is there: only whether it has helpers is unknown.
    throw new ConformanceError(
      error.what.startsWith('answered')
        ? `conformance: could not tell whether ${baseUrl} has the mock's test helpers: GET /__mock ${error.what}; check the target and run again`
        : `conformance: ${baseUrl} did not answer (GET /__mock ${error.what}); check --base-url and that the target is up`,
    );
  }
  const text = await response.text();
  if (!response.ok) {
    if (NO_HELPERS.has(response.status)) return undefined;
    throw new ConformanceError(
      `conformance: could not tell whether ${baseUrl} has the mock's test helpers: GET /__mock answered ${response.status}; check the target and run again`,
    );
  }
  try {
    const body: unknown = JSON.parse(text);
    // The mock answers `{ success, data: { helpers, described } }`; anything else is a service of its own.
    const data = typeof body === 'object' && body !== null && 'data' in body ? body.data : undefined;
    if (typeof data === 'object' && data !== null && 'helpers' in data)
      return connectMock(root, { fetch: helperFetch });
  } catch {
    // Not the mock's helper list: a service of its own.
  }
  return undefined;
}
