/**
 * The conformance suite's vocabulary: a scenario, the target one side of a run gives it, what it observes, and
 * what a run reports. Every scenario runs twice, on the reference (an in-process mock) and on the target (a
 * second in-process mock, a standalone server, or a partner's sandbox); the two observation lists are compared
 * by shape, not by value (`compare.ts`).
 */
import type { PayoutClient } from '../../src/index.js';
import type { MockHelperCalls } from '../connect.js';
import type { Coverage } from './coverage.js';
import type { GuidedDeposit, GuidedSide } from './guided.js';
import type { ProbeSettings } from './probes/cases.js';
import type { ProbeReport } from './probes/types.js';
import type { ConformanceReceiver } from './scenarios/webhook-receiver.js';

/**
 * How much a scenario needs of its target: `read-only` sends only reads and requests without a valid key
 * (nothing it sends could change the target, and the run enforces it), `creates` stores test data (users,
 * transactions; each named with the run's prefix) and sends writes the service should refuse (a service that
 * accepts one is changed by it, and the report names the difference), `mock-helpers` needs the mock's test
 * helpers or clock (`/__mock/*`) and is skipped against a sandbox.
 */
export type Tier = 'read-only' | 'creates' | 'mock-helpers';

/** Every tier, from the safest. */
export const TIERS: readonly Tier[] = ['read-only', 'creates', 'mock-helpers'];

/** The two sides of a run: `mock` is the reference, `sandbox` the target being checked. */
export type Side = 'mock' | 'sandbox';

/** One request and its answer as seen on the wire, reduced to what conformance compares. */
export interface WireExchange {
  kind: 'exchange';
  /** `METHOD path-template`, the name differences are reported under. */
  label: string;
  method: string;
  /** The path with its IDs replaced by the route's parameter names (`/v2/users/:userId/kyc/status`). */
  path: string;
  status: number;
  /** The headers that matter (rate limit, `Idempotent-Replayed`, `Content-Type`), lower-case, as received. */
  headers: Record<string, string>;
  /** The parsed JSON body; the text when it is not JSON; `undefined` when empty. */
  body: unknown;
}

/** A named observation a scenario records beside the wire: a state, a timing the spec states, a delivery. */
export interface StepObservation {
  kind: 'step';
  label: string;
  value: unknown;
  /**
   * `value`: the two sides must record equal JSON; `shape`: only the JSON shape is compared; `delivery`: a
   * webhook envelope, compared by shape and checked against its event type's payload in the contract;
   * `headers`: each header's form (a record of header name to form), compared one header at a time.
   */
  compare: 'value' | 'shape' | 'delivery' | 'headers';
}

/** A side stopped early: its scenario threw something other than an API error answer. */
export interface StopObservation {
  kind: 'stopped';
  label: 'stopped';
  error: string;
}

/** Anything a side observes, in order. */
export type Observation = WireExchange | StepObservation | StopObservation;

/**
 * Options of {@link ScenarioTarget.step}.
 * @example
 * ```ts
 * import type { StepOptions } from 'inr-payouts/mock';
 * const options: StepOptions = { compare: 'shape' };
 * ```
 */
export interface StepOptions {
  /** Default `value`. */
  compare?: StepObservation['compare'];
}

/** What a scenario gets for one side of the run. */
export interface ScenarioTarget {
  /** `mock` (the reference) or `sandbox` (the target). */
  readonly side: Side;
  /**
   * The package's own client for this side, with its retries and idempotency keys on the target (the answer
   * it ends with is the observation), its every request recorded and paced to the account's rate limit.
   */
  readonly client: PayoutClient;
  /**
   * A `fetch` sent through that client, for what its methods refuse to send (no key, another key, a bad JSON
   * body). Give it paths under `baseUrl`, or an upload URL an answer handed out.
   */
  readonly fetch: typeof fetch;
  readonly baseUrl: string;
  readonly apiKey: string;
  /** The run's prefix: every `partnerReference` (and every other name a create takes) starts with it. */
  readonly prefix: string;
  /** The mock's test helpers, or `undefined` against a service that has none (a sandbox). */
  readonly helpers: MockHelperCalls | undefined;
  /** A guided run's deposit, waits and receiver (`--guided`), or `undefined` in any other run. */
  readonly guided: GuidedSide | undefined;
  /**
   * A webhook receiver for this scenario, verifying with `secret`: point the account's webhook URL at its `url`.
   * The run's own with `--receiver-url`; a fresh one on 127.0.0.1 otherwise.
   */
  openReceiver(secret: string): Promise<ConformanceReceiver>;
  /** Records a named observation beside the wire exchanges. */
  step(label: string, value: unknown, options?: StepOptions): void;
  /** Stops the scenario: it is reported `skipped` with `reason`. */
  skip(reason: string): never;
  /** The helpers, or a skip naming `what` needs them. */
  needHelpers(what: string): MockHelperCalls;
  /** A mobile number not used before in this run (a new user needs one). */
  newMobile(): string;
  /** A new name with the run's prefix, for a `partnerReference` or a `deviceId`. */
  name(what: string): string;
  /** Awaits a call whose error answer is the point: resolves `undefined` on an API error (it is on the wire). */
  refused<T>(call: PromiseLike<T>): Promise<T | undefined>;
  /**
   * Runs `call`, in which a 429 is the point (a rate or OTP limit being checked): answered as it is, where any
   * other 429 is a transient refusal the run waits out and retries.
   */
  atLimit<T>(call: () => Promise<T>): Promise<T>;
}

/** One scenario of the suite, drawn from one rule of the spec. */
export interface Scenario {
  /** Stable, dotted (`auth.missing-key`); `--only` and the report use it. */
  id: string;
  title: string;
  /** The spec section(s) the scenario checks. */
  spec: string;
  tier: Tier;
  run(t: ScenarioTarget): Promise<void>;
}

/**
 * What a difference means for a partner's code, as the client reads answers (unknown fields pass, enums are
 * open): `breaking` breaks it (a field missing or renamed, a type or format changed, another status, error
 * identifier or error shape, a header or signature changed, a state moved otherwise); `review` breaks nothing (a
 * new enum value in an answer, a field or event type the contract does not list); `flaky` did not come back
 * when the scenario was sent again.
 */
export type Severity = 'breaking' | 'review' | 'flaky';

/** One difference between the two sides, named for a reader. */
export interface Difference {
  severity: Severity;
  /** The observation's label: `METHOD path-template` for an exchange, the step's label otherwise. */
  step: string;
  /** What differs: `status`, `error shape`, `` `field.path` ``, `` `X-RateLimit-Limit` header ``, `order`... */
  what: string;
  /** The reference's side of it, in words (`number`, `absent`, `201`, `shape A`). */
  mock: string;
  sandbox: string;
  /** `<step>: <what>: mock <mock>, sandbox <sandbox>`. */
  text: string;
  /** Index of the observation in both lists (its first), for showing the two answers side by side. */
  index: number;
  /** How many times the scenario met this same difference (on several requests, or several steps). */
  count: number;
}

/** A scenario's outcome, from the most severe: see {@link ScenarioResult.outcome}. */
export type Outcome = (typeof OUTCOMES)[number];

/** Every outcome a run counts, from the most severe (a report's `counts` has one key each). */
export const OUTCOMES = [
  'differs',
  'review',
  'flaky',
  'same',
  'skipped',
  'unavailable',
  'not-compared',
] as const;

/** One scenario's outcome. */
export interface ScenarioResult extends Pick<Scenario, 'id' | 'title' | 'spec' | 'tier'> {
  /**
   * The most severe of its differences (`differs`: one breaks a partner's code; `review`; `flaky`), `same`, or
   * `skipped`; `unavailable`: the target could not be asked (a request kept failing, or timed out);
   * `not-compared`: the run could not observe the target (its receiver got no delivery). Neither of the last two
   * is compared or read as a difference.
   */
  outcome: Outcome;
  differences: Difference[];
  /** Why it was skipped or not compared, or which request found the target unavailable. */
  reason?: string;
  /**
   * A skip's cause, as data: its tier was not chosen, the target has not the mock's helpers, or the scenario's
   * own reason (`reason` says it in words).
   */
  skippedFor?: 'tier' | 'helpers' | 'scenario';
  /** Steps after the point where a side stopped or the sides parted: not compared. */
  notCompared?: string[];
  /** What the mock adds beyond the spec (`x-mock-only`) and the target left out: never a difference. */
  mockOwn?: string[];
  /** Said of a scenario whose both sides stopped alike: the sides agree, but the scenario did not finish. */
  note?: string;
  /** What each side observed (empty when skipped by tier). */
  mock: Observation[];
  sandbox: Observation[];
  /** Real milliseconds the scenario took, both sides. */
  ms: number;
}

/** What a conformance run found. */
export interface ConformanceReport {
  /** The target's base URL, or `in-process mock`. */
  target: string;
  tiers: Tier[];
  /** The run's prefix: every `partnerReference` and other name it created starts with it. */
  prefix: string;
  /** The target account's requests per minute the run was paced to. */
  rateLimit: number;
  startedAt: string;
  /** True when the exit status is 0. */
  ok: boolean;
  /**
   * The command's exit status, from the most severe line: 1 a difference that breaks a partner's code (or one for
   * review, with `failOnReview`), 2 the run could not compare everything it ran, 0 otherwise (review and flaky
   * lines only).
   */
  exitCode: 0 | 1 | 2;
  /** How many scenarios ended with each outcome. */
  counts: Record<Outcome, number>;
  /** Each distinct difference once, with how often and where it was seen. */
  summary: DifferenceSummary[];
  /**
   * The mock's own additions (the contract's `x-mock-only` marks) the target left out, each once: the mock's own,
   * not promised by the spec, so never a difference and never in the exit status.
   */
  mockOwn: string[];
  /** What the run did to the target, as its start and end say. */
  effects: string[];
  /**
   * Every request the run sent to the target: the API's (each retry too), its test helpers', an upload URL's.
   * The same for every run of the same options and seed against the same target, retries aside.
   */
  requests: number;
  /** Each `/v2` endpoint and event type: exercised, or why not. */
  coverage: Coverage;
  /** Each field rule probed at its boundaries on both sides: the cases compared and each disagreement. */
  probes?: ProbeReport;
  results: ScenarioResult[];
}

/** One distinct difference over the whole run. */
export interface DifferenceSummary {
  severity: Severity;
  /** `what: mock …, sandbox …`, with the request or step when it was seen on one only. */
  text: string;
  /** How many times it was seen. */
  count: number;
  /** The requests or steps it was seen on. */
  steps: string[];
  /** The scenarios it was seen in. */
  scenarios: string[];
}

/**
 * Options of `runConformance`.
 * @example
 * ```ts
 * import type { ConformanceOptions } from 'inr-payouts/mock';
 * const options: ConformanceOptions = { baseUrl: 'https://sandbox.example.test', apiKey: 'pk_sandbox_…', tier: ['read-only'] };
 * ```
 */
export interface ConformanceOptions {
  /** The target. Without it, the target is a second in-process mock. */
  baseUrl?: string | undefined;
  /** The target's sandbox key. A `pk_live_` key is refused before anything is sent. Default: a mock's own key. */
  apiKey?: string | undefined;
  /** The tiers to run (default all three). */
  tier?: Tier | readonly Tier[] | undefined;
  /** Only the scenarios with these IDs (or ID prefixes ending in `.`). */
  only?: readonly string[] | undefined;
  /** A difference for review (a new enum value, a field the contract does not list) fails the run too (exit 1). */
  failOnReview?: boolean | undefined;
  /** Each progress line, as it happens. */
  onProgress?: ((line: string) => void) | undefined;
  /** The `fetch` the target is reached with (default the global one). */
  fetch?: typeof fetch | undefined;
  /** The scenarios to run (default the whole suite). */
  scenarios?: readonly Scenario[] | undefined;
  /** Milliseconds one request to the target may take before it is a time-out (default 30,000). */
  timeoutMs?: number | undefined;
  /** Retries of a transient failure (time-out, network error, 408, 429, 5xx) before the target is unavailable (default 2, as the client). */
  retries?: number | undefined;
  /** Scales the back-off between those retries (default 1: the client's 0.5 s to 8 s; 0 retries at once). */
  backoff?: number | undefined;
  /**
   * Carries a standard transaction through on the target (`transactions.guided-flow`): the partner sends the
   * deposit the run prints, and the run follows confirmations, payout, attribution and every delivery. Needs
   * `receiverUrl`, `webhookSecret` and (without the mock's helpers) `userId`.
   */
  guided?: boolean | undefined;
  /**
   * The URL the target delivers webhooks to, reaching the run's receiver on 127.0.0.1 (`receiverPort`): a
   * partner's tunnel (`guided`), or the host as a target in a container sees it
   * (`http://host.containers.internal:8787/webhooks`). Without it, each webhook scenario's receiver is on
   * 127.0.0.1 at a free port.
   */
  receiverUrl?: string | undefined;
  /**
   * The address the run's receiver listens on with `receiverUrl` (default 127.0.0.1): `0.0.0.0` where a target
   * in a container reaches the host on its network address rather than its loopback.
   */
  receiverHost?: string | undefined;
  /** The port of the run's receiver on 127.0.0.1 (default 8787). */
  receiverPort?: number | undefined;
  /** The account's webhook secret, to verify each delivery's signature. Never printed. */
  webhookSecret?: string | undefined;
  /**
   * A KYC-verified user on the target (with a verified bank account) the guided transaction is made for. Needed
   * on a target without the mock's helpers; on one with them, the run seeds a verified user when it is left out.
   */
  userId?: string | undefined;
  /** Called with the deposit to send, once it is printed; the run waits for it after. */
  onDeposit?: ((deposit: GuidedDeposit) => void | Promise<void>) | undefined;
  /** Milliseconds between two polls of a guided wait (default 5,000). */
  pollIntervalMs?: number | undefined;
  /** Milliseconds one guided wait may last (the deposit, the payout, the deliveries; default 3,600,000). */
  guidedTimeoutMs?: number | undefined;
  /**
   * The probes of each field rule at its boundaries, sent after the scenarios when given: the seed that chooses
   * the cases (default 1) and the most per endpoint (default 24); `{}` sends them with both defaults. Left out
   * or `false`, none is sent (the command line sends them unless `--probe-cap 0` or `--only` is given).
   */
  probes?: Partial<ProbeSettings> | false | undefined;
}
