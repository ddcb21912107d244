/**
 * The events the receiver check delivers: real envelopes of the payload types in `src/webhooks/events.ts`,
 * with IDs unique to one run so a long-lived receiver's deduplication store never sees them twice across runs.
 */
import type { WebhookEventOf, WebhookEventType } from '../../src/webhooks/index.js';

/** Builds the envelopes of one run. */
export function checkEvents(runId: string, nowMs: number, partnerId = 'partner_receiver_check') {
  const at = new Date(nowMs).toISOString();
  const id = (name: string) => `evt_check_${runId}_${name}`;
  const envelope = <T extends WebhookEventType>(
    name: string,
    event: T,
    data: WebhookEventOf<T>['data'],
  ): WebhookEventOf<T> => ({ id: id(name), event, timestamp: at, partnerId, data }) as WebhookEventOf<T>;
  const transactionId = `txn_check_${runId}`;
  return {
    userCreated: (name: string) =>
      envelope(name, 'user.created', {
        userId: `usr_check_${runId}_${name}`,
        mobile: '+919876543210',
        createdAt: at,
      }),
    kycUpdated: (name: string) =>
      envelope(name, 'user.kyc_updated', {
        userId: `usr_check_${runId}_${name}`,
        previous: { level: 'none', status: 'pending' },
        current: { level: 'basic', status: 'verified' },
      }),
    payoutInitiated: (name: string) =>
      envelope(name, 'transaction.payout_initiated', {
        transactionId,
        status: 'payout_processing',
        amountInr: '8450.00',
        rail: 'imps',
      }),
    payoutCompleted: (name: string) =>
      envelope(name, 'transaction.payout_completed', {
        transactionId,
        merchant_id: `order-${runId}`,
        payoutId: `pay_check_${runId}`,
        orderId: `order-${runId}`,
        amount: 8450,
        currency: 'INR',
        status: 'SUCCESS',
        utr: 'SBXCHECK0000001',
        provider: 'sandbox-imps',
        receiver_name: 'Asha Rao',
        bank_account_masked: 'XXXXXX1234',
        ifsc_code: 'HDFC0000001',
        completedAt: at,
        message: 'Payout successful',
      }),
  };
}
