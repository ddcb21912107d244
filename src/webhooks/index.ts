/**
 * `inr-payouts/webhooks`: verify, type and sign the service's webhooks (spec section 6).
 *
 * Imports nothing from the client and nothing from node at load time, so it runs on edge runtimes as well:
 * there use `verifyWebhookAsync` (WebCrypto); `verifyWebhook` and `signWebhook` fetch node:crypto on first call.
 * To handle each event exactly once (verify, claim its ID, run, answer), in one process or across replicas, use
 * `createWebhookHandler` of `inr-payouts/webhooks/handler`.
 *
 * @example
 * ```ts
 * import { signWebhook, verifyWebhook } from 'inr-payouts/webhooks';
 *
 * const secret = 'whsec_example';
 * const { body, signature } = signWebhook({ payload: { id: 'evt_1', event: 'user.created', timestamp: '2025-01-01T00:00:00.000Z', partnerId: 'p_1', data: { userId: 'usr_1', createdAt: '2025-01-01T00:00:00.000Z' } }, secret });
 * console.log(verifyWebhook(body, signature, secret).event); // user.created
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
