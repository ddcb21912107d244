/**
 * `inr-payouts`: the client of the Stablecoin-to-INR payout service.
 *
 * - `PayoutClient`, one property per resource, and `client.request()` for any path;
 * - the wire schemas (zod/mini) and their types, shared with the mock;
 * - the error classes of the transport and of the helpers;
 * - KYC readers. Money helpers (decimal.js) live in `inr-payouts/money`, so this entry stays small.
 */

export { PayoutClient, type RawRequest } from './client.js';
export { ApiPromise, type WithResponse } from './core/api-promise.js';
export {
  APIConnectionError,
  APIError,
  type APIErrorInit,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConfigurationError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  normalizeErrorCode,
  PayoutError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  UnprocessableEntityError,
  ValidationError,
  type ValidationIssue,
} from './core/errors.js';
export { type ClientOptions, type Environment, environmentKeyPrefixes } from './core/options.js';
export type { RateLimitInfo } from './core/rate-limit.js';
export { pathParam } from './core/transport.js';
export type { HttpMethod, Logger, RequestOptions, ResponseInfo } from './core/types.js';
export { MIN_POLL_INTERVAL_MS, type PollOptions, PollTimeoutError } from './internal/poll.js';
export {
  bankNameMismatch,
  isDeclarationRejected,
  isVerified,
  type KycRequirement,
  type KycRequirements,
  kycRequirements,
  needsRefresh,
  upiOutcome,
} from './kyc-readers.js';
export { AccountResource } from './resources/account.js';
export { AadhaarResource } from './resources/kyc/aadhaar.js';
export { BankResource } from './resources/kyc/bank.js';
export { DeclarationResource } from './resources/kyc/declaration.js';
export { DIGILOCKER_POLL, DigilockerResource, DigilockerSessionError } from './resources/kyc/digilocker.js';
export {
  DocumentResource,
  DocumentUploadError,
  type DocumentUploadParams,
} from './resources/kyc/document.js';
export { FACE_POLL, FaceResource } from './resources/kyc/face.js';
export { PanResource } from './resources/kyc/pan.js';
export { PassportResource } from './resources/kyc/passport.js';
export { ProfileResource } from './resources/kyc/profile.js';
export { UpiResource } from './resources/kyc/upi.js';
export { KycResource } from './resources/kyc.js';
export type {
  CreateWithRecoveryOptions,
  CreateWithRecoveryResult,
} from './resources/transactions/recovery.js';
export {
  ATTRIBUTION_POLL,
  type AttributedTransaction,
  hasAttribution,
  TRANSACTION_POLL,
  TransactionStatusError,
  type WaitForStatusOptions,
} from './resources/transactions/wait.js';
export { TransactionsResource } from './resources/transactions.js';
export { UsersResource } from './resources/users.js';
export { EmailVerificationResource } from './resources/verification/email.js';
export { MobileVerificationResource } from './resources/verification/mobile.js';
export { WebhooksResource } from './resources/webhooks.js';
export * from './schemas/index.js';
