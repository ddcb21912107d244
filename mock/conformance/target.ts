/**
 * One side of a run: where it sends (an in-process mock, or a base URL), with which key, through which recording
 * and paced `fetch`, and with which helpers. `scenarioTarget` gives each scenario a fresh observation list.
 */
import { APIConnectionError, APIError, type ClientClock, PayoutClient } from '../../src/index.js';
import { connectMock, type MockHelperCalls } from '../connect.js';
import type { Pacer } from './pace.js';
import { recordingFetch } from './record.js';
import type { Observation, ScenarioTarget, Side, StepOptions } from './types.js';

/**
 * Why a run could not start (a live key, an unknown tier, a target that refuses the key); nothing was sent to
 * the target when the key was the problem.
 * @example
 * ```ts
 * import { ConformanceError, runConformance } from 'inr-payouts/mock';
 * await runConformance({ baseUrl: 'https://api.example.test', apiKey: 'pk_live_x' }).catch((e) => e instanceof ConformanceError);
 * ```
 */
export class ConformanceError extends Error {
  override readonly name = 'ConformanceError';
}

/** What a scenario throws to be skipped. */
export class ScenarioSkipped extends Error {
  override readonly name = 'ScenarioSkipped';
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
export function scenarioTarget(setup: SideSetup, run: RunNames, log: Observation[]): ScenarioTarget {
  const fetcher = recordingFetch(setup.send, setup.baseUrl, setup.pacer, log);
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
  const skip = (reason: string): never => {
    throw new ScenarioSkipped(reason);
  };
  return {
    side: setup.side,
    client,
    fetch: fetcher,
    baseUrl: setup.baseUrl,
    apiKey: setup.apiKey,
    prefix: run.prefix,
    helpers: setup.helpers,
    step(label: string, value: unknown, options: StepOptions = {}) {
      log.push({ kind: 'step', label, value: structuredClone(value), compare: options.compare ?? 'value' });
    },
    skip,
    needHelpers(what: string) {
      return (
        setup.helpers ?? skip(`${what} needs the mock's test helpers (/__mock), which this target has not`)
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
  };
}

/** Whether the service at `baseUrl` has the mock's test helpers: `GET /__mock` answers the helper list. */
export async function probeHelpers(
  baseUrl: string,
  send: typeof fetch,
  pacer: Pacer,
): Promise<MockHelperCalls | undefined> {
  const root = baseUrl.replace(/\/+$/, '');
  await pacer.next();
  let response: Response;
  try {
    response = await send(`${root}/__mock`, { headers: { accept: 'application/json' } });
  } catch (error) {
    throw new ConformanceError(
      `conformance: nothing answers at ${baseUrl} (${error instanceof Error ? error.message : String(error)}); check --base-url`,
    );
  }
  const text = await response.text();
  if (!response.ok) return undefined;
  try {
    const body: unknown = JSON.parse(text);
    // The mock answers `{ success, data: { helpers, described } }`; anything else is a service of its own.
    const data = typeof body === 'object' && body !== null && 'data' in body ? body.data : undefined;
    if (typeof data === 'object' && data !== null && 'helpers' in data)
      return connectMock(root, { fetch: send });
  } catch {
    // Not the mock's helper list: a service of its own.
  }
  return undefined;
}
