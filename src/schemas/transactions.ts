/**
 * Transaction wire objects (spec 2.4, 3.1, 4.2): the create bodies (standard and prefunded), the create
 * answers, and the four objects of a read (`transaction`, `deposit`, `quote`, `payout` with its rate
 * attribution and allocations).
 */
import * as z from 'zod/mini';
import { lengthBetween } from '../internal/checks.js';
import {
  AmountUsd,
  Asset,
  AssetInput,
  DecimalString,
  Metadata,
  Network,
  NetworkInput,
  openEnum,
  requiredString,
  Timestamp,
} from './common.js';

/**
 * Every transaction status the spec names (3.1): the activity feed's eight, plus the prefunded flow's
 * `payout_completed` and `awaiting_funds`.
 * @example
 * ```ts
 * import { transactionStatuses } from 'inr-payouts';
 * transactionStatuses.includes('awaiting_funds') // true
 * ```
 */
export const transactionStatuses = [
  'created',
  'deposit_pending',
  'deposit_detected',
  'deposit_confirmed',
  'payout_processing',
  'payout_completed',
  'awaiting_funds',
  'completed',
  'failed',
  'cancelled',
] as const;

/**
 * The statuses after which a transaction never moves again.
 * @example
 * ```ts
 * import { terminalTransactionStatuses } from 'inr-payouts';
 * terminalTransactionStatuses.includes('completed') // true
 * ```
 */
export const terminalTransactionStatuses = ['completed', 'failed', 'cancelled'] as const;

/**
 * Response field: a transaction status (open).
 * @example
 * ```ts
 * import { TransactionStatus } from 'inr-payouts';
 * TransactionStatus.parse('completed')
 * ```
 */
export const TransactionStatus = openEnum(transactionStatuses);
/**
 * A transaction status.
 * @example
 * ```ts
 * import { TransactionStatus } from 'inr-payouts';
 * const s: TransactionStatus = 'deposit_confirmed';
 * ```
 */
export type TransactionStatus = z.infer<typeof TransactionStatus>;

const PARTNER_REFERENCE_RULE = 'partnerReference must be a non-empty string of at most 255 characters';

/**
 * `POST /v2/transactions` body (spec 4.2 names `userId`, `amount`, `asset`, `network`; the rest is the
 * prefunded body, docs/assumptions.md). `amount` is a USD decimal string from 10 to 50,000.
 * @example
 * ```ts
 * import { TransactionCreateRequest } from 'inr-payouts';
 * TransactionCreateRequest.parse({ userId: 'usr_1', amount: '100.00', asset: 'USDC', network: 'polygon', partnerReference: 'order-42' })
 * ```
 */
export const TransactionCreateRequest = z.object({
  userId: requiredString('userId'),
  amount: AmountUsd,
  asset: AssetInput,
  network: NetworkInput,
  partnerReference: z.optional(
    z.string({ error: PARTNER_REFERENCE_RULE }).check(lengthBetween(1, 255, PARTNER_REFERENCE_RULE)),
  ),
  metadata: z.optional(Metadata),
});
/**
 * Standard transaction create body.
 * @example
 * ```ts
 * import { TransactionCreateRequest } from 'inr-payouts';
 * const p: TransactionCreateRequest = { userId: 'usr_1', amount: '100', asset: 'USDT', network: 'base' };
 * ```
 */
export type TransactionCreateRequest = z.infer<typeof TransactionCreateRequest>;

/**
 * `POST /v2/transactions/prefunded` body (spec 4.2): the same fields as the standard create.
 * @example
 * ```ts
 * import { PrefundedTransactionCreateRequest } from 'inr-payouts';
 * PrefundedTransactionCreateRequest.parse({ userId: 'usr_1', amount: '500', asset: 'USDT', network: 'polygon' })
 * ```
 */
export const PrefundedTransactionCreateRequest = TransactionCreateRequest;
/**
 * Prefunded transaction create body.
 * @example
 * ```ts
 * import { PrefundedTransactionCreateRequest } from 'inr-payouts';
 * const p: PrefundedTransactionCreateRequest = { userId: 'usr_1', amount: '500', asset: 'USDT', network: 'polygon' };
 * ```
 */
export type PrefundedTransactionCreateRequest = z.infer<typeof PrefundedTransactionCreateRequest>;

/**
 * A quote (spec 2.4). `exchangeRate` is a JSON number (INR per USD); the money is decimal strings. The
 * quote of a create also carries `feePercent` and `feeInr`.
 * @example
 * ```ts
 * import { Quote } from 'inr-payouts';
 * Quote.parse({ exchangeRate: 83.25, grossInr: '8325.00', netInr: '8241.75', feePercent: 0.01, feeInr: '83.25' })
 * ```
 */
export const Quote = z.looseObject({
  exchangeRate: z.number(),
  grossInr: DecimalString,
  netInr: DecimalString,
  feePercent: z.optional(z.number()),
  feeInr: z.optional(DecimalString),
});
/**
 * A quote.
 * @example
 * ```ts
 * import { Quote } from 'inr-payouts';
 * const q: Quote = { exchangeRate: 83.25, grossInr: '8325.00', netInr: '8325.00' };
 * ```
 */
export type Quote = z.infer<typeof Quote>;

/**
 * A create quote: `exchangeRate`, `feePercent`, `feeInr`, `grossInr`, `netInr` (spec 4.2).
 * @example
 * ```ts
 * import { CreateQuote } from 'inr-payouts';
 * CreateQuote.parse({ exchangeRate: 83.25, feePercent: 0.01, feeInr: '83.25', grossInr: '8325.00', netInr: '8241.75' })
 * ```
 */
export const CreateQuote = z.looseObject({
  exchangeRate: z.number(),
  feePercent: z.number(),
  feeInr: DecimalString,
  grossInr: DecimalString,
  netInr: DecimalString,
});
/**
 * The quote returned on creation.
 * @example
 * ```ts
 * const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
 * const fee = (await client.transactions.create({ userId, amount: '100', asset: 'USDC', network: 'polygon' })).quote.feeInr;
 * ```
 */
export type CreateQuote = z.infer<typeof CreateQuote>;

// The fields both creates answer with: the prefunded answer is shown in 4.2, the standard one is assumed to match it.
const createdFields = {
  transactionId: z.string(),
  partnerReference: z.optional(z.string()),
  depositAddress: z.string(),
  depositNetwork: Network,
  depositAsset: Asset,
  expectedAmount: DecimalString,
  quote: CreateQuote,
  expiresAt: Timestamp,
};

/**
 * `POST /v2/transactions/prefunded` data (spec 4.2).
 * @example
 * ```ts
 * import { PrefundedTransaction } from 'inr-payouts';
 * PrefundedTransaction.parse({ transactionId: 'txn_1', depositAddress: '0xabc', depositNetwork: 'polygon', depositAsset: 'USDT', expectedAmount: '500', quote: { exchangeRate: 83.25, feePercent: 0, feeInr: '0', grossInr: '41625.00', netInr: '41625.00' }, expiresAt: '2024-01-16T10:30:00Z' })
 * ```
 */
export const PrefundedTransaction = z.looseObject({
  ...createdFields,
  status: z.optional(TransactionStatus),
});
/**
 * A created prefunded transaction.
 * @example
 * ```ts
 * mock.helpers.accounts.update({ prefunded: { approved: true, creditLimitUsd: '1000' } });
 * const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
 * const { depositAddress, expiresAt } = await client.transactions.createPrefunded({ userId, amount: '500', asset: 'USDT', network: 'polygon' });
 * ```
 */
export type PrefundedTransaction = z.infer<typeof PrefundedTransaction>;

/**
 * `POST /v2/transactions` data (assumed, docs/assumptions.md): the prefunded answer's fields, with `status`
 * (`created`) always present.
 * @example
 * ```ts
 * import { CreatedTransaction } from 'inr-payouts';
 * CreatedTransaction.parse({ transactionId: 'txn_1', status: 'created', depositAddress: '0xabc', depositNetwork: 'polygon', depositAsset: 'USDC', expectedAmount: '100', quote: { exchangeRate: 83.25, feePercent: 0, feeInr: '0', grossInr: '8325.00', netInr: '8325.00' }, expiresAt: '2024-01-15T11:00:00Z' })
 * ```
 */
export const CreatedTransaction = z.looseObject({ ...createdFields, status: TransactionStatus });
/**
 * A created standard transaction.
 * @example
 * ```ts
 * const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
 * const { transactionId, depositAddress } = await client.transactions.create({ userId, amount: '100', asset: 'USDC', network: 'base' });
 * ```
 */
export type CreatedTransaction = z.infer<typeof CreatedTransaction>;

/**
 * The `transaction` object of a read (spec 2.4).
 * @example
 * ```ts
 * import { TransactionInfo } from 'inr-payouts';
 * TransactionInfo.parse({ id: 'txn_1', status: 'created', createdAt: '2024-01-15T10:30:00Z' })
 * ```
 */
export const TransactionInfo = z.looseObject({
  id: z.string(),
  status: TransactionStatus,
  partnerReference: z.optional(z.string()),
  createdAt: Timestamp,
});
/**
 * The `transaction` object.
 * @example
 * ```ts
 * import { TransactionInfo } from 'inr-payouts';
 * const s: TransactionInfo['status'] = 'completed';
 * ```
 */
export type TransactionInfo = z.infer<typeof TransactionInfo>;

/**
 * Deposit status values (spec shows `confirmed`; moves not shown).
 * @example
 * ```ts
 * import { depositStatuses } from 'inr-payouts';
 * depositStatuses[0]
 * ```
 */
export const depositStatuses = ['pending', 'detected', 'confirmed', 'failed'] as const;

/**
 * The `deposit` object (spec 2.4). What is not known before the deposit arrives is optional.
 * @example
 * ```ts
 * import { Deposit } from 'inr-payouts';
 * Deposit.parse({ network: 'polygon', asset: 'USDC', address: '0xabc', expectedAmount: '100' })
 * ```
 */
export const Deposit = z.looseObject({
  network: Network,
  asset: Asset,
  address: z.string(),
  expectedAmount: DecimalString,
  receivedAmount: z.optional(z.nullable(DecimalString)),
  txHash: z.optional(z.nullable(z.string())),
  status: z.optional(openEnum(depositStatuses)),
  confirmations: z.optional(z.number()),
  confirmedAt: z.optional(z.nullable(Timestamp)),
});
/**
 * The deposit leg.
 * @example
 * ```ts
 * import { Deposit } from 'inr-payouts';
 * const d: Deposit = { network: 'base', asset: 'USDC', address: '0xabc', expectedAmount: '10' };
 * ```
 */
export type Deposit = z.infer<typeof Deposit>;

/**
 * One deal-rate tranche consumed by a payout (spec 2.4).
 * @example
 * ```ts
 * import { Allocation } from 'inr-payouts';
 * Allocation.parse({ dealId: 'deal_1', dealNumber: 'D-0001', rate: '83.10', inrAmount: '8310.00', usdtAmount: '100' })
 * ```
 */
export const Allocation = z.looseObject({
  dealId: z.string(),
  dealNumber: z.string(),
  rate: DecimalString,
  inrAmount: DecimalString,
  usdtAmount: DecimalString,
});
/**
 * One tranche of a payout's rate attribution.
 * @example
 * ```ts
 * import { Allocation } from 'inr-payouts';
 * const a: Allocation = { dealId: 'd1', dealNumber: 'D-1', rate: '83', inrAmount: '830', usdtAmount: '10' };
 * ```
 */
export type Allocation = z.infer<typeof Allocation>;

/**
 * Payout status values: the spec shows `pending` and `completed`; `processing` and `failed` complete the
 * set (moves not shown).
 * @example
 * ```ts
 * import { payoutStatuses } from 'inr-payouts';
 * payoutStatuses.includes('completed') // true
 * ```
 */
export const payoutStatuses = ['pending', 'processing', 'completed', 'failed'] as const;
/**
 * Response field: a payout status (open).
 * @example
 * ```ts
 * import { PayoutStatus } from 'inr-payouts';
 * PayoutStatus.parse('completed')
 * ```
 */
export const PayoutStatus = openEnum(payoutStatuses);
/**
 * A payout status.
 * @example
 * ```ts
 * import { PayoutStatus } from 'inr-payouts';
 * const s: PayoutStatus = 'pending';
 * ```
 */
export type PayoutStatus = z.infer<typeof PayoutStatus>;

/**
 * Values of the mock's `payout.attributionStatus`: whether a rate attribution is still coming, came, or never will.
 * @example
 * ```ts
 * import { attributionStatuses } from 'inr-payouts';
 * attributionStatuses.includes('none') // true
 * ```
 */
export const attributionStatuses = ['pending', 'attributed', 'none'] as const;

/**
 * The `payout` object (spec 2.4). Every field is optional: before the payout starts most are absent, and
 * the rate attribution (`rate`, `usdtEquivalent`, `allocations`) appears only just after submission and only
 * on pool-funded payouts (2.4 rules 3 and 4).
 * @example
 * ```ts
 * import { Payout } from 'inr-payouts';
 * Payout.parse({ rail: 'imps', amountInr: '8325.00', status: 'completed', utr: 'UTR123', completedAt: '2024-01-15T10:40:00Z', rate: '83.25', usdtEquivalent: '100', allocations: [] })
 * ```
 */
export const Payout = z.looseObject({
  rail: z.optional(z.string()),
  amountInr: z.optional(z.nullable(DecimalString)),
  status: z.optional(PayoutStatus),
  utr: z.optional(z.nullable(z.string())),
  completedAt: z.optional(z.nullable(Timestamp)),
  rate: z.optional(DecimalString),
  usdtEquivalent: z.optional(DecimalString),
  allocations: z.optional(z.array(Allocation)),
  /** Whether a rate attribution comes: `pending`, `attributed`, or `none` (not pool-funded). */
  attributionStatus: z.optional(openEnum(attributionStatuses)),
});
/**
 * The payout leg.
 * @example
 * ```ts
 * import { Payout } from 'inr-payouts';
 * const p: Payout = { rail: 'imps', status: 'pending' };
 * ```
 */
export type Payout = z.infer<typeof Payout>;

/**
 * `GET /v2/transactions/{transactionId}` data (spec 2.4): the four objects. `payout` may be absent (or
 * null) before the payout leg exists.
 * @example
 * ```ts
 * import { Transaction } from 'inr-payouts';
 * Transaction.parse({ transaction: { id: 'txn_1', status: 'created', createdAt: '2024-01-15T10:30:00Z' }, deposit: { network: 'polygon', asset: 'USDC', address: '0xabc', expectedAmount: '100' }, quote: { exchangeRate: 83.25, grossInr: '8325.00', netInr: '8325.00' } })
 * ```
 */
export const Transaction = z.looseObject({
  transaction: TransactionInfo,
  deposit: Deposit,
  quote: Quote,
  payout: z.optional(z.nullable(Payout)),
});
/**
 * A transaction as read.
 * @example
 * ```ts
 * const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
 * await client.transactions.create({ userId, amount: '100', asset: 'USDC', network: 'base', partnerReference: 'order-42' });
 * const { transaction, payout } = await client.transactions.retrieve('order-42');
 * ```
 */
export type Transaction = z.infer<typeof Transaction>;
