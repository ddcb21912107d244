/**
 * One side of a run: where it sends (an in-process mock, or a base URL), with which key, through which recording
 * and paced `fetch`, and with which helpers. `scenarioTarget` gives each scenario a fresh observation list.
 */
import { APIConnectionError, APIError } from '../../src/index.js';
import { connectMock, type MockHelperCalls } from '../connect.js';
import { objectOf } from '../state/records.js';
import { ConformanceError, TargetUnavailable } from './errors.js';
import type { GuidedSide } from './guided.js';
import type { ReceiverSessions } from './receivers.js';
import { retried, type Sending, sideClient } from './send.js';
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
  apiKey: string;
  /**
   * How the side sends (its client's policy, its pacer), and the last request it stayed unavailable for (reset
   * before each scenario), however deep in a client or helper call the failure was met.
   */
  sending: Sending;
  helpers: MockHelperCalls | undefined;
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
  const [random = 0] = crypto.getRandomValues(new Uint32Array(1));
  let count = 0;
  return { prefix, mobileBase: random % 900_000_000, next: () => ++count };
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
  receivers: ReceiverSessions,
): ScenarioTarget {
  let atLimit = false;
  const { sending } = setup;
  const side = sideClient(sending, {
    apiKey: setup.apiKey,
    log,
    paced: true,
    atLimit: () => atLimit,
    ...(scenario.tier === 'read-only' ? { readOnly: scenario.id } : {}),
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
    get client() {
      return side.client;
    },
    fetch: side.fetch,
    baseUrl: sending.baseUrl,
    apiKey: setup.apiKey,
    prefix: run.prefix,
    helpers: setup.helpers,
    guided: setup.guided,
    openReceiver: (secret) => receivers.open(secret),
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
    newMobile: () => `9${String((base + ++mobiles) % 1_000_000_000).padStart(9, '0')}`,
    name: (what: string) => `${run.prefix}${what}-${sequence}-${++names}`,
    async refused<T>(call: PromiseLike<T>): Promise<T | undefined> {
      try {
        return await call;
      } catch (error) {
        // An answer the service gave is on the wire, and compared there; anything else (and an answer the
        // client gave up retrying) stops the scenario.
        const answered = error instanceof APIError && !(error instanceof APIConnectionError);
        if (answered && error.status !== undefined && !sending.failed) return undefined;
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

/** Statuses that say "no such thing here": a service without the mock's helpers. */
const NO_HELPERS = new Set([401, 403, 404, 405, 410]);

/** A key the run's own requests carry before the target's is known; sent with none (`withoutKey`). */
const NO_KEY_YET = 'pk_sandbox_conformance_unknown';

/** The `fetch` the target's helpers are called through: the side's client, unrecorded and unpaced. */
const helperFetch = (sending: Sending) => sideClient(sending, { apiKey: NO_KEY_YET, paced: false }).fetch;

/**
 * Whether the service at `sending.baseUrl` has the mock's test helpers: `GET /__mock` answers the helper list.
 * The first request of a run, sent once and not paced (it is not the API): a target that does not answer fails
 * the run at once (nothing is there to wait for); an answer the client retries is asked again with its retries,
 * and one that stays is no answer, never "no helpers".
 */
export async function probeHelpers(sending: Sending): Promise<MockHelperCalls | undefined> {
  const { baseUrl, policy } = sending;
  let tried = sending;
  const probe = (retries: number) => {
    tried = { ...sending, ...(policy ? { policy: { ...policy, retries } } : {}) };
    return helperFetch(tried)(`${baseUrl}/__mock`, { headers: { accept: 'application/json' } });
  };
  let response: Response;
  try {
    response = await probe(0);
    if (policy && retried(response.status)) response = await probe(policy.retries);
  } catch (error) {
    if (!(error instanceof TargetUnavailable)) throw error;
    // An answer that kept failing says the target is there: only whether it has helpers is unknown.
    throw new ConformanceError(
      error.what.startsWith('answered')
        ? `conformance: could not tell whether ${baseUrl} has the mock's test helpers: GET /__mock ${error.what}; check the target and run again`
        : `conformance: ${baseUrl} did not answer (GET /__mock ${error.what}); check --base-url and that the target is up`,
    );
  }
  if (!response.ok) {
    if (NO_HELPERS.has(response.status)) return undefined;
    throw new ConformanceError(
      `conformance: could not tell whether ${baseUrl} has the mock's test helpers: GET /__mock ${tried.failed?.what ?? `answered ${response.status}`}; check the target and run again`,
    );
  }
  try {
    // The mock answers `{ success, data: { helpers, described } }`; anything else is a service of its own.
    if (objectOf(objectOf(await response.json())?.data)?.helpers !== undefined)
      return connectMock(baseUrl, { fetch: helperFetch(sending) });
  } catch {
    // Not the mock's helper list: a service of its own.
  }
  return undefined;
}
