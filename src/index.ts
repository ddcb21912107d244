/**
 * `inr-payouts`: the client of the Stablecoin-to-INR payout service, its wire schemas (zod/mini), errors and KYC
 * readers. Money helpers live in `inr-payouts/money`, so this entry stays small.
 * @module inr-payouts
 */

export { PayoutClient, type RawRequest } from './client.js';
export { ApiPromise, type ApiResponse, type WithResponse } from './core/api-promise.js';
export type { ClientClock } from './core/clock.js';
export {
  APIConnectionError,
  APIConnectionTimeoutError,
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
export { Page, PagePromise } from './core/pagination.js';
export { MIN_POLL_INTERVAL_MS, type PollOptions, PollTimeoutError } from './core/poll.js';
export type { RateLimitInfo } from './core/rate-limit.js';
export { pathParam } from './core/transport.js';
export type {
  FetchOptions,
  HttpMethod,
  Logger,
  LogLevel,
  RequestOptions,
  ResponseInfo,
} from './core/types.js';
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
// Reached through a client's properties, so exported as types only, out of the bundle's runtime exports.
export type { AccountResource } from './resources/account.js';
export type { AadhaarResource } from './resources/kyc/aadhaar.js';
export type { BankResource } from './resources/kyc/bank.js';
export type { DeclarationResource } from './resources/kyc/declaration.js';
export {
  DIGILOCKER_POLL,
  type DigilockerResource,
  DigilockerSessionError,
} from './resources/kyc/digilocker.js';
export {
  type DocumentResource,
  DocumentUploadError,
  type DocumentUploadParams,
} from './resources/kyc/document.js';
export { FACE_POLL, type FaceResource } from './resources/kyc/face.js';
export type { PanResource } from './resources/kyc/pan.js';
export type { PassportResource } from './resources/kyc/passport.js';
export type { ProfileResource } from './resources/kyc/profile.js';
export type { UpiResource } from './resources/kyc/upi.js';
export type { KycResource } from './resources/kyc.js';
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
  UnattributedPayoutError,
  type WaitForStatusOptions,
} from './resources/transactions/wait.js';
export type { TransactionsResource } from './resources/transactions.js';
export type { UsersResource } from './resources/users.js';
export type { EmailVerificationResource } from './resources/verification/email.js';
export type { MobileVerificationResource } from './resources/verification/mobile.js';
export type {
  RecoverQuery,
  RecoverResult,
  UnwrapOptions,
  WebhookHeaders,
  WebhooksResource,
} from './resources/webhooks.js';
export * from './schemas/index.js';
export { WebhookVerificationError, type WebhookVerificationReason } from './webhooks/errors.js';
