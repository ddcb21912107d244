/**
 * The ten webhook payloads (spec 6.2, docs/webhook-events.md) as zod/mini schemas, for the OpenAPI document's
 * `webhooks` and the check of a synthetic event's payload. The `inr-payouts/webhooks` entry types them as plain interfaces (it is dependency-free), so these
 * schemas are written here and checked against those interfaces at compile time: each schema's type and the
 * interface must be assignable both ways, or this file does not compile.
 */
import * as z from 'zod/mini';
import { Asset, Network, openEnum } from '../../src/schemas/common.js';
import { KycAggregateStatus, KycLevel } from '../../src/schemas/kyc/status.js';
import { TransactionStatus } from '../../src/schemas/transactions.js';
import type { WebhookEventDataMap } from '../../src/webhooks/events.js';

// The entry's open enums (`Open<'polygon' | ...>`) accept any string; so do these, publishing the known values.
const text = z.string();
const kycState = z.object({ level: KycLevel, status: KycAggregateStatus });
const deposit = z.object({
  transactionId: text,
  status: TransactionStatus,
  network: Network,
  asset: Asset,
  txHash: text,
  receivedAmount: text,
  expectedAmount: text,
  confirmations: z.number(),
  confirmedAt: z.optional(text),
});
const sweep = z.object({
  transactionId: text,
  network: Network,
  asset: Asset,
  amount: text,
  sweepTxHash: z.optional(text),
  reason: z.optional(text),
});

/** The `data` of each event type. */
export const WEBHOOK_PAYLOADS = {
  'user.created': z.object({
    userId: text,
    mobile: z.optional(text),
    email: z.optional(text),
    createdAt: text,
  }),
  'user.kyc_updated': z.object({ userId: text, previous: kycState, current: kycState }),
  'transaction.created': z.object({
    transactionId: text,
    userId: text,
    partnerReference: z.optional(text),
    status: TransactionStatus,
    amount: text,
    asset: Asset,
    network: Network,
    depositAddress: text,
    expiresAt: text,
    prefunded: z.optional(z.boolean()),
  }),
  'transaction.deposit_detected': deposit,
  'transaction.deposit_confirmed': deposit,
  'transaction.sweep_confirmed': sweep,
  'transaction.sweep_failed': sweep,
  'transaction.payout_initiated': z.object({
    transactionId: text,
    status: TransactionStatus,
    amountInr: text,
    rail: openEnum(['imps'] as const),
  }),
  'transaction.payout_completed': z.object({
    transactionId: text,
    merchant_id: text,
    payoutId: text,
    orderId: text,
    amount: z.number(),
    currency: openEnum(['INR'] as const),
    status: openEnum(['SUCCESS'] as const),
    utr: text,
    provider: text,
    receiver_name: text,
    bank_account_masked: text,
    ifsc_code: text,
    completedAt: text,
    message: text,
    rate: z.optional(text),
    usdtEquivalent: z.optional(text),
    allocations: z.optional(
      z.array(z.object({ dealId: text, dealNumber: text, rate: text, inrAmount: text, usdtAmount: text })),
    ),
  }),
  'transaction.payout_failed': z.object({
    transactionId: text,
    status: TransactionStatus,
    amountInr: text,
    code: text,
    reason: text,
  }),
};

type Payloads = typeof WEBHOOK_PAYLOADS;
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Agrees = { [T in keyof WebhookEventDataMap]: Mutual<z.infer<Payloads[T]>, WebhookEventDataMap[T]> };
// Fails to compile when a schema and the entry's interface disagree, or an event type is missing.
const agrees: { [T in keyof WebhookEventDataMap]: true } = {} as Agrees;
void agrees;
