/**
 * Webhook events a test asks for by type (`helpers.webhooks.trigger`, `POST /__mock/webhooks/trigger`): a
 * complete sample payload of that type with the caller's data laid over it, checked against the payload's
 * schema, then emitted like any event (signed, recorded, retried on the clock). Such an event is marked
 * `synthetic` in its record: it stands for no stored user or transaction, and nothing stored changes, so an
 * override never contradicts stored state (docs/assumptions.md, "Triggered webhook events (mock)").
 */

import * as z from 'zod/mini';
import type { WebhookEventType } from '../../src/webhooks/events.js';
import { WEBHOOK_PAYLOADS } from '../contract/webhook-payloads.js';
import { MockArgumentError } from '../engine/errors.js';
import { emitEvent } from '../engine/events.js';
import { nowIso } from '../engine/timers.js';
import type { MockState } from '../state/mock-state.js';
import type { WebhookEventRecord } from '../state/webhooks.js';

const USER = 'usr_synthetic';
const TXN = 'txn_synthetic';
const ADDRESS = '0x000000000000000000000000000000000000dEaD';
const HASH = `0x${'ab'.repeat(32)}`;

function sample(type: WebhookEventType, now: string): Record<string, unknown> {
  const onChain = { transactionId: TXN, network: 'polygon', asset: 'USDT' };
  const deposit = { ...onChain, txHash: HASH, receivedAmount: '100', expectedAmount: '100' };
  switch (type) {
    case 'user.created':
      return { userId: USER, mobile: '+919876543210', createdAt: now };
    case 'user.kyc_updated':
      return {
        userId: USER,
        previous: { level: 'none', status: 'in_progress' },
        current: { level: 'basic', status: 'verified' },
      };
    case 'transaction.created':
      return {
        ...onChain,
        userId: USER,
        status: 'created',
        amount: '100',
        depositAddress: ADDRESS,
        expiresAt: now,
      };
    case 'transaction.deposit_detected':
      return { ...deposit, status: 'deposit_detected', confirmations: 1 };
    case 'transaction.deposit_confirmed':
      return { ...deposit, status: 'deposit_confirmed', confirmations: 128, confirmedAt: now };
    case 'transaction.sweep_confirmed':
      return { ...onChain, amount: '100', sweepTxHash: HASH };
    case 'transaction.sweep_failed':
      return { ...onChain, amount: '100', reason: 'Sweep reverted' };
    case 'transaction.payout_initiated':
      return { transactionId: TXN, status: 'payout_processing', amountInr: '8410.00', rail: 'imps' };
    case 'transaction.payout_completed':
      return {
        transactionId: TXN,
        merchant_id: 'partner',
        payoutId: 'pay_synthetic',
        orderId: TXN,
        amount: 8410,
        currency: 'INR',
        status: 'SUCCESS',
        utr: '000000000001',
        provider: 'imps',
        receiver_name: 'Asha Rao',
        bank_account_masked: 'XXXXXXXX9012',
        ifsc_code: 'HDFC0001234',
        completedAt: now,
        message: 'Payout completed',
      };
    case 'transaction.payout_failed':
      return {
        transactionId: TXN,
        status: 'failed',
        amountInr: '8410.00',
        code: 'PAYOUT_FAILED',
        reason: 'The payout provider rejected the transfer',
      };
  }
}

/**
 * Emits a synthetic event of `type` for `accountId`: the sample payload with `data` laid over it (top-level
 * fields replaced). Throws `MockArgumentError` naming the field when the result is not a valid payload.
 */
export function triggerEvent(
  state: MockState,
  accountId: string,
  type: WebhookEventType,
  data: Record<string, unknown> = {},
): WebhookEventRecord {
  const payload = { ...sample(type, nowIso(state)), ...data };
  const result = z.safeParse(WEBHOOK_PAYLOADS[type], payload);
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = ['data', ...(issue?.path ?? []).map(String)].join('.');
    throw new MockArgumentError(
      `helpers.webhooks.trigger: field ${field} does not fit a ${type} payload (${issue?.code ?? 'invalid'}${
        issue && 'expected' in issue ? `: expected ${String(issue.expected)}` : ''
      })`,
      field,
    );
  }
  const record = emitEvent(state, accountId, type, payload);
  record.synthetic = true;
  return record;
}
