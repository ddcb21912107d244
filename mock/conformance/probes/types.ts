/** What the probes of a run found: the cases sent per endpoint, and each disagreement named with its rule. */
import type { Severity, Tier } from '../types.js';

/** One case the two sides answered differently. */
export interface ProbeDifference {
  /**
   * `breaking`: another status or error identifier, answered again when the case was sent again; `flaky`: the
   * second send did not answer as the first.
   */
  severity: Exclude<Severity, 'review'>;
  /** `POST /v2/users/:userId/kyc/bank/verify`. */
  endpoint: string;
  /** `accountNumber, 8 digits`. */
  rule: string;
  /** Each side's answer: its status and error identifier (`400 Validation Error`, `201`). */
  mock: string;
  sandbox: string;
  /** `accountNumber, 8 digits: mock 400 Validation Error, sandbox 404 Not Found`. */
  text: string;
}

/** One endpoint's probes. */
export interface ProbeEndpoint {
  endpoint: string;
  operationId: string;
  /** Cases sent to both sides and compared. */
  compared: number;
  /** Cases not sent: their tier was not chosen, or the target became unavailable. */
  notSent: number;
  /** Why cases were not sent, when some were not. */
  why?: string;
  /** How many of the compared cases the sides answered differently. */
  differing: number;
}

/** The probes of a run. */
export interface ProbeReport {
  /** The seed the cases were chosen by, and the most sent per endpoint. */
  seed: number | string;
  cap: number;
  /** Every case generated for the run's endpoints (sent or not). */
  generated: number;
  /** The cases sent to both sides and compared. */
  compared: number;
  endpoints: ProbeEndpoint[];
  differences: ProbeDifference[];
  /** The requests the target stayed unavailable for (nothing compared there, never a difference). */
  unavailable: string[];
  /** The users the probes' valid `POST /v2/users` cases created on the target. */
  created: number;
  /** Real milliseconds the probes took. */
  ms: number;
}

/** A tier's cases were not sent: the run did not choose it. */
export const tierNotChosen = (tier: Tier) => `tier ${tier} not chosen`;
