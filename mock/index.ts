/**
 * `inr-payouts/mock`: a stateful simulation of the whole payout service, in-process on a virtual clock, served
 * through `mock.fetch` (no msw needed) or msw's `setupServer(...mswHandlers(mock))`. This entry never loads msw
 * (an optional peer dependency, msw 2 or 3): `mswHandlers` is the entry `inr-payouts/mock/msw`, which does.
 *
 * @module inr-payouts/mock
 */

export * from './conformance/index.js';
export { connectMock, type MockHelperCalls, type RemoteMockHelpers } from './connect.js';
export type { ChaosOptions } from './contract/chaos.js';
export type { MockProfile } from './contract/mock-only.js';
export type { CreateAccountInput } from './engine/accounts.js';
export {
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  type MockBundle,
  parseBundle,
  RECORDING_BUDGET_BYTES,
} from './engine/bundle.js';
export type { AdvanceResult, Clock, RealtimeOptions } from './engine/clock.js';
export type { Duration, DurationPart, DurationUnit } from './engine/duration.js';
export { parseDuration } from './engine/duration.js';
export type { ApiErrorBody, ErrorShape, TransitionRefusal } from './engine/errors.js';
export { MockApiError, MockArgumentError, MockHelperError, MockTransitionError } from './engine/errors.js';
export { type Explanation, explainLine } from './engine/explain.js';
export {
  JOURNAL_BUDGET_BYTES,
  JOURNAL_LIMIT,
  type Journal,
  type JournalEntry,
  type JournalEntryOf,
  type JournalEntryType,
  type JournalFilter,
  type JournalHelper,
  type JournalRequest,
  type JournalTimer,
  type JournalTransition,
  type JournalWebhook,
  type TransitionResource,
} from './engine/journal.js';
export type { MockBudgets, MockServiceOptions } from './engine/options.js';
export type { MockHelpers } from './helpers/index.js';
export type { DigilockerCompletion } from './helpers/kyc-digilocker.js';
export type { FaceCompletion } from './helpers/kyc-face.js';
export type { SeedData } from './helpers/lifecycle.js';
export type { OtpReading } from './helpers/otp.js';
export type { VerifiedUserInput } from './helpers/seed.js';
export type { SimulatedDeposit } from './helpers/transactions.js';
export type { CapturedDelivery, WebhookEventView } from './helpers/webhooks.js';
export type { VirtualClientClock } from './http/client-clock.js';
export type { MockFetch } from './http/fetch.js';
export { EXPLAIN_HEADER } from './http/pipeline.js';
export type { Ledger, LedgerRow } from './observe/ledger.js';
export { RECORDING_LIMIT } from './observe/recorder.js';
export type { ReplaySummary } from './observe/replay.js';
export type { NewTranche } from './operations/tranches.js';
export type { WebhookFetch } from './operations/webhooks.js';
export type {
  OperationBody,
  OperationData,
  OperationId,
  OperationQuery,
  OverrideResolver,
} from './overrides.js';
export type { FaultSpec } from './policies/faults.js';
export * from './receiver-check/index.js';
export { SANDBOX_EXPLANATIONS } from './sandbox-explanations.js';
export { SANDBOX_DEFAULTS, SANDBOX_KYC, SANDBOX_TRANSACTIONS } from './sandbox-values.js';
export { createMockService, type MockService } from './service.js';
export type { AccountRecord, AccountSettings } from './state/accounts.js';
export type { ChaosDraw, ChaosKind, ChaosRecord } from './state/chaos.js';
export type { DeepReadonly, MockState } from './state/mock-state.js';
export type { TrancheRecord, TransactionRecord } from './state/transactions.js';
export type { WebhookEventRecord } from './state/webhooks.js';
