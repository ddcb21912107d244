// Transaction wire objects (spec 2.4, 3.1, 4.2): the create bodies and answers, and the four objects of a read.
import * as z from 'zod/mini';
import { stringOfLength } from '../internal/checks.js';
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
  responseObject,
  Timestamp,
} from './common.js';

/** Every transaction status the spec names (3.1), with the prefunded `payout_completed`, `awaiting_funds`. */
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

/** The statuses after which a transaction never moves again. */
export const terminalTransactionStatuses = ['completed', 'failed', 'cancelled'] as const;

/** Response field: a transaction status (open: a status added later still parses). */
export const TransactionStatus = openEnum(transactionStatuses);
/** A status the spec names (3.1), closed for inputs (`waitForStatus`); a response reads it as an `OpenEnum`. */
export type TransactionStatus = (typeof transactionStatuses)[number];

const PARTNER_REFERENCE_RULE = 'partnerReference must be a non-empty string of at most 255 characters';

/**
 * `POST /v2/transactions` body (spec 4.2; `partnerReference`, `metadata` as the prefunded body's, assumed).
 * `amount` is a USD decimal string from 10 to 50,000.
 */
export const TransactionCreateRequest = z.object({
  userId: requiredString('userId'),
  amount: AmountUsd,
  asset: AssetInput,
  network: NetworkInput,
  partnerReference: z.optional(stringOfLength(1, 255, PARTNER_REFERENCE_RULE)),
  metadata: z.optional(Metadata),
});
/** Standard transaction create body. */
export type TransactionCreateRequest = z.infer<typeof TransactionCreateRequest>;

/** `POST /v2/transactions/prefunded` body (spec 4.2): the same fields as the standard create. */
export const PrefundedTransactionCreateRequest = TransactionCreateRequest;
/** Prefunded transaction create body. */
export type PrefundedTransactionCreateRequest = z.infer<typeof PrefundedTransactionCreateRequest>;

/** A quote (spec 2.4): `exchangeRate` is a JSON number (INR per USD), the money decimal strings. */
export const Quote = responseObject({
  exchangeRate: z.number(),
  grossInr: DecimalString,
  netInr: DecimalString,
  feePercent: z.optional(z.number()),
  feeInr: z.optional(DecimalString),
});
/** A quote. */
export type Quote = z.infer<typeof Quote>;

/** A create quote: `exchangeRate`, `feePercent`, `feeInr`, `grossInr`, `netInr` (spec 4.2). */
export const CreateQuote = responseObject({
  exchangeRate: z.number(),
  feePercent: z.number(),
  feeInr: DecimalString,
  grossInr: DecimalString,
  netInr: DecimalString,
});
/** The quote returned on creation. */
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

/** `POST /v2/transactions/prefunded` data (spec 4.2). */
export const PrefundedTransaction = responseObject({
  ...createdFields,
  status: z.optional(TransactionStatus),
});
/** A created prefunded transaction. */
export type PrefundedTransaction = z.infer<typeof PrefundedTransaction>;

/** `POST /v2/transactions` data (assumed, docs/assumptions.md): the prefunded answer, `status` always set. */
export const CreatedTransaction = responseObject({ ...createdFields, status: TransactionStatus });
/** A created standard transaction. */
export type CreatedTransaction = z.infer<typeof CreatedTransaction>;

/** The `transaction` object of a read (spec 2.4). */
export const TransactionInfo = responseObject({
  id: z.string(),
  status: TransactionStatus,
  partnerReference: z.optional(z.string()),
  createdAt: Timestamp,
  /** The mock's own (docs/mock-only.md): when the status last moved. */
  updatedAt: z.optional(Timestamp),
  /** The mock's own: why the transaction ended `failed` or `cancelled` (`QUOTE_EXPIRED`, `PAYOUT_FAILED` …). */
  failureCode: z.optional(z.string()),
  /** The mock's own: `failureCode` in words. */
  failureReason: z.optional(z.string()),
});
/** The `transaction` object. */
export type TransactionInfo = z.infer<typeof TransactionInfo>;

/** Deposit status values (spec shows `confirmed`; moves not shown). */
export const depositStatuses = ['pending', 'detected', 'confirmed', 'failed'] as const;

/** The `deposit` object (spec 2.4). What is not known before the deposit arrives is optional. */
export const Deposit = responseObject({
  network: Network,
  asset: Asset,
  address: z.string(),
  expectedAmount: DecimalString,
  receivedAmount: z.optional(z.nullable(DecimalString)),
  txHash: z.optional(z.nullable(z.string())),
  status: z.optional(openEnum(depositStatuses)),
  confirmations: z.optional(z.number()),
  confirmedAt: z.optional(z.nullable(Timestamp)),
  /** The mock's own (docs/mock-only.md): the confirmations the network needs. */
  requiredConfirmations: z.optional(z.number()),
});
/** The deposit leg. */
export type Deposit = z.infer<typeof Deposit>;

/** One deal-rate tranche consumed by a payout (spec 2.4). */
export const Allocation = responseObject({
  dealId: z.string(),
  dealNumber: z.string(),
  rate: DecimalString,
  inrAmount: DecimalString,
  usdtAmount: DecimalString,
});
/** One tranche of a payout's rate attribution. */
export type Allocation = z.infer<typeof Allocation>;

/** Payout status values: the spec shows `pending`, `completed`; `processing` and `failed` complete the set. */
export const payoutStatuses = ['pending', 'processing', 'completed', 'failed'] as const;
/** Response field: a payout status (open). */
export const PayoutStatus = openEnum(payoutStatuses);
/** A payout status. */
export type PayoutStatus = z.infer<typeof PayoutStatus>;

/** Values of the mock's `payout.attributionStatus`: an attribution still coming, come, or never coming. */
export const attributionStatuses = ['pending', 'attributed', 'none'] as const;

/**
 * The `payout` object (spec 2.4), all optional: the rate attribution (`rate`, `usdtEquivalent`, `allocations`)
 * appears just after submission, and only on pool-funded payouts (2.4 rules 3 and 4).
 */
export const Payout = responseObject({
  rail: z.optional(z.string()),
  amountInr: z.optional(z.nullable(DecimalString)),
  status: z.optional(PayoutStatus),
  utr: z.optional(z.nullable(z.string())),
  completedAt: z.optional(z.nullable(Timestamp)),
  rate: z.optional(DecimalString),
  usdtEquivalent: z.optional(DecimalString),
  allocations: z.optional(z.array(Allocation)),
  /** The mock's own (docs/mock-only.md): see {@link attributionStatuses}. */
  attributionStatus: z.optional(openEnum(attributionStatuses)),
  /** The mock's own: why the payout failed, as `transaction.payout_failed`'s `code` says it. */
  failureCode: z.optional(z.string()),
  /** The mock's own: `failureCode` in words. */
  failureReason: z.optional(z.string()),
});
/** The payout leg. */
export type Payout = z.infer<typeof Payout>;

/** `GET /v2/transactions/{transactionId}` data (spec 2.4); `payout` absent or null before the payout leg. */
export const Transaction = responseObject({
  transaction: TransactionInfo,
  deposit: Deposit,
  quote: Quote,
  payout: z.optional(z.nullable(Payout)),
});
/** A transaction as read. */
export type Transaction = z.infer<typeof Transaction>;
