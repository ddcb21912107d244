/**
 * The conformance suite: one library of scenarios drawn from the spec, run against the in-process mock and a
 * target (a standalone server or a partner's sandbox), compared by shape (`inr-payouts-mock conformance` on the
 * command line).
 */

export { compareObservations } from './compare.js';
export type { Coverage as ConformanceCoverage, CoverageRow as ConformanceCoverageRow } from './coverage.js';
export { ConformanceError, TargetUnavailable } from './errors.js';
export type { GuidedDeposit, GuidedSide } from './guided.js';
export { conformanceHtml } from './html.js';
export { runConformance } from './load.js';
export type { ProbeSettings as ConformanceProbeSettings } from './probes/cases.js';
export type {
  ProbeDifference as ConformanceProbeDifference,
  ProbeEndpoint as ConformanceProbeEndpoint,
  ProbeReport as ConformanceProbeReport,
} from './probes/types.js';
export { formatConformanceReport } from './report.js';
export type { ConformanceReceiver, ReceivedDelivery } from './scenarios/webhook-receiver.js';
export { CONFORMANCE_HEADERS } from './send.js';
export {
  type ConformanceOptions,
  type ConformanceReport,
  type Difference as ConformanceDifference,
  type DifferenceSummary as ConformanceDifferenceSummary,
  type Observation,
  OUTCOMES as CONFORMANCE_OUTCOMES,
  type Outcome as ConformanceOutcome,
  type Scenario,
  type ScenarioResult,
  type ScenarioTarget,
  type Severity as ConformanceSeverity,
  type Side as ConformanceSide,
  type StepObservation,
  type StepOptions,
  type StopObservation,
  TIERS as CONFORMANCE_TIERS,
  type Tier as ConformanceTier,
  type WireExchange,
} from './types.js';
