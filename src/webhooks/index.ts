/**
 * `inr-payouts/webhooks`: verify, type and deduplicate the service's webhooks (spec section 6).
 *
 * Imports nothing from the client and nothing from node at load time, so it runs on edge runtimes as well:
 * there use `verifyWebhookAsync` (WebCrypto); `verifyWebhook` and `signWebhook` fetch node:crypto on first call.
 * For verify, claim, run and answer in one handler, exactly once across replicas, see `inr-payouts/webhooks/handler`.
 *
 * @example
 * ```ts
 * import { signWebhook, verifyWebhook } from 'inr-payouts/webhooks';
 *
 * const secret = 'whsec_example';
 * const { body, header } = signWebhook({ payload: { id: 'evt_1', event: 'user.created', timestamp: '2025-01-01T00:00:00.000Z', partnerId: 'p_1', data: { userId: 'usr_1', createdAt: '2025-01-01T00:00:00.000Z' } }, secret });
 * console.log(verifyWebhook(body, header, secret).event); // user.created
 * ```
 * @packageDocumentation
 *
 * @module inr-payouts/webhooks
 */

export {
  EVENT_ID_HEADER,
  SIGNATURE_HEADER,
  type SignatureHeader,
  type VerifyWebhookOptions,
  type WebhookBody,
  type WebhookSecret,
} from './common.js';
export {
  createDeduplicator,
  type DeduplicationStore,
  type Deduplicator,
  type DeduplicatorOptions,
} from './dedupe.js';
export { WebhookVerificationError, type WebhookVerificationReason } from './errors.js';
export {
  type Asset,
  isKnownWebhookEvent,
  type KnownWebhookEvent,
  type KycLevel,
  type KycState,
  type KycStatus,
  type Network,
  type RateAllocation,
  type TransactionCreatedData,
  type TransactionDepositData,
  type TransactionPayoutCompletedData,
  type TransactionPayoutFailedData,
  type TransactionPayoutInitiatedData,
  type TransactionStatus,
  type TransactionSweepData,
  type UnknownWebhookEvent,
  type UserCreatedData,
  type UserKycUpdatedData,
  WEBHOOK_EVENT_TYPES,
  type WebhookEnvelope,
  type WebhookEvent,
  type WebhookEventDataMap,
  type WebhookEventOf,
  type WebhookEventType,
} from './events.js';
export { type SignedWebhook, type SignWebhookInput, signWebhook } from './sign.js';
export { verifyWebhook } from './verify.js';
export { verifyWebhookAsync } from './verify-async.js';
