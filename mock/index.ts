/**
 * `inr-payouts/mock`: a stateful simulation of the whole payout service, in-process on a virtual clock, served
 * through `mock.fetch` (no msw needed) or msw's `setupServer(...mock.handlers)` (msw 2 or 3, an optional peer
 * dependency loaded only when `mock.handlers` is read).
 *
 * @module inr-payouts/mock
 */

export {
  CONFORMANCE_HEADERS,
  CONFORMANCE_SCENARIOS,
  CONFORMANCE_TIERS,
  type ConformanceDifference,
  ConformanceError,
  type ConformanceOptions,
  type ConformanceReport,
  type ConformanceSide,
  type ConformanceTier,
  compareObservations,
  conformanceHtml,
  formatConformanceReport,
  type Observation,
  runConformance,
  type Scenario,
  type ScenarioResult,
  type ScenarioTarget,
  type StepObservation,
  type StepOptions,
  type StopObservation,
  type WireExchange,
} from './conformance/index.js';
export { connectMock, type MockHelperCalls, type RemoteMockHelpers } from './connect.js';
export type { ChaosOptions } from './contract/chaos.js';
export type { CreateAccountInput } from './core/accounts.js';
export {
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  type MockBundle,
  parseBundle,
  RECORDING_BUDGET_BYTES,
} from './core/bundle.js';
export type { VirtualClientClock } from './core/client-clock.js';
export type { AdvanceResult, Clock, RealtimeOptions } from './core/clock.js';
export type { Duration } from './core/duration.js';
export { parseDuration } from './core/duration.js';
export type { ApiErrorBody, ErrorShape, TransitionRefusal } from './core/errors.js';
export { MockApiError, MockArgumentError, MockHelperError, MockTransitionError } from './core/errors.js';
export { type Explanation, explainLine } from './core/explain.js';
export type { FaultSpec } from './core/faults.js';
export type { MockFetch } from './core/fetch.js';
export {
  JOURNAL_BUDGET_BYTES,
  JOURNAL_LIMIT,
  type Journal,
  type JournalEntry,
  type JournalFilter,
  type JournalHelper,
  type JournalRequest,
  type JournalTimer,
  type JournalTransition,
  type JournalWebhook,
  type TransitionResource,
} from './core/journal.js';
export type { Ledger, LedgerRow } from './core/ledger.js';
export type { MockProfile } from './core/mock-only.js';
export type { MockBudgets, MockServiceOptions } from './core/options.js';
export { EXPLAIN_HEADER } from './core/pipeline.js';
export { RECORDING_LIMIT } from './core/recorder.js';
export type { ReplaySummary } from './core/replay.js';
export type { MockHelpers } from './helpers/index.js';
export type { DigilockerCompletion, FaceCompletion } from './helpers/kyc.js';
export type { SeedData } from './helpers/lifecycle.js';
export type { OtpReading } from './helpers/otp.js';
export type { VerifiedUserInput } from './helpers/seed.js';
export type { NewTranche } from './helpers/tranches.js';
export type { SimulatedDeposit } from './helpers/transactions.js';
export type { CapturedDelivery } from './helpers/webhooks.js';
export type { WebhookFetch } from './operations/webhooks.js';
export type { OperationBody, OperationData, OperationId, OverrideResolver } from './overrides.js';
export {
  type CheckGrade,
  type CheckReceiverOptions,
  type CheckResult,
  checkReceiver,
  formatReceiverReport,
  type ReceiverReport,
} from './receiver-check/index.js';
export { SANDBOX_EXPLANATIONS } from './sandbox-explanations.js';
export { SANDBOX_DEFAULTS, SANDBOX_KYC, SANDBOX_TRANSACTIONS } from './sandbox-values.js';
export { createMockService, type MockService } from './service.js';
export type { AccountRecord, AccountSettings } from './state/accounts.js';
export type { ChaosDraw, ChaosKind, ChaosRecord } from './state/chaos.js';
export type { DeepReadonly, MockState } from './state/mock-state.js';
export type { TrancheRecord, TransactionRecord } from './state/transactions.js';
export type { WebhookEventRecord } from './state/webhooks.js';
