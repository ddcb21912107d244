/**
 * Transactions (spec 2.4, 3.1), deal-rate tranches (2.4) and prefunded credit (2.5), as plain data. The
 * pure transitions live in `mock/machines/transaction.ts` and `prefunded.ts`; the flow that applies them,
 * emits events and schedules timers lives in `mock/operations/transactions.ts`.
 */
import type { AssetInput, NetworkInput } from '../../src/schemas/common.js';
import type { transactionStatuses } from '../../src/schemas/transactions.js';
import { SANDBOX_TRANSACTIONS } from '../sandbox-values.js';
import { keyed } from './records.js';

/** Transaction status values (spec 3.1, including the prefunded ones). */
export type TransactionStatus = (typeof transactionStatuses)[number];

/**
 * The quote fixed at creation (spec 2.4, 4.2). `exchangeRate` is a number on the wire; it is kept as the
 * decimal string it was set from so the INR figures are computed exactly.
 */
export interface QuoteRecord {
  exchangeRate: string;
  feePercent: number;
  feeInr: string;
  grossInr: string;
  netInr: string;
}

/** The deposit leg; what is not known before the deposit is seen stays absent. */
export interface DepositRecord {
  expectedAmount: string;
  requiredConfirmations: number;
  status?: 'pending' | 'detected' | 'confirmed' | 'failed';
  receivedAmount?: string;
  txHash?: string;
  /**
   * Confirmations stored by the last block timer: the first and the last run one (machines/confirmations.ts
   * counts the blocks mined in between on a read).
   */
  confirmations?: number;
  /** When the first confirmation arrived (ISO 8601); the blocks after it follow every `blockMs`. */
  detectedAt?: string;
  confirmedAt?: string;
}

/** One allocation of a payout's rate attribution (spec 2.4). */
export interface AllocationRecord {
  dealId: string;
  dealNumber: string;
  rate: string;
  inrAmount: string;
  usdtAmount: string;
}

/** A payout's rate attribution (spec 2.4). */
export interface AttributionRecord {
  rate: string;
  usdtEquivalent: string;
  allocations: AllocationRecord[];
}

/** The payout leg; absent until it starts. */
export interface PayoutRecord {
  payoutId: string;
  rail: 'imps';
  amountInr: string;
  status: 'pending' | 'processing' | 'completed' | 'failed';
  initiatedAt: string;
  utr?: string;
  completedAt?: string;
  /** Set when the payout failed (spec 7.3 payout identifiers). */
  failureCode?: string;
  failureReason?: string;
  /** Pool-funded payouts only (spec 2.4 rule 1); set just after submission. */
  attribution?: AttributionRecord;
  /**
   * Whether a rate attribution comes (docs/assumptions.md): `pending` until it is computed, then
   * `attributed`, or `none` for a payout not funded from the pool (prefunded, or the pool could not cover it).
   */
  attributionStatus?: 'pending' | 'attributed' | 'none';
  /** The payout's completion timer, so a helper can settle it early. */
  timerId?: string;
}

/** A transaction as the mock stores it. Money is decimal strings. */
export interface TransactionRecord {
  id: string;
  accountId: string;
  userId: string;
  kind: 'standard' | 'prefunded';
  status: TransactionStatus;
  amount: string;
  asset: AssetInput;
  network: NetworkInput;
  partnerReference?: string;
  metadata?: Record<string, unknown>;
  depositAddress: string;
  quote: QuoteRecord;
  /** Standard: the quote's expiry. Prefunded: the end of the 24-hour funding window. */
  expiresAt: string;
  deposit: DepositRecord;
  payout?: PayoutRecord;
  /** Why the transaction ended `failed` or `cancelled` (e.g. `QUOTE_EXPIRED`, `PAYOUT_FAILED`). */
  failureCode?: string;
  failureReason?: string;
  /** The sweep of the confirmed deposit into the settlement pool (spec 6.2 `sweep_confirmed`, `sweep_failed`). */
  sweep?: { status: 'pending' | 'confirmed' | 'failed'; txHash?: string; reason?: string; at?: string };
  /** Prefunded: the amount still counted in `outstandingUsd` (spec 2.5). */
  creditHeld?: boolean;
  /** Deadline timers (quote expiry, funding window), cancelled when the transaction ends or is paid. */
  timerIds: string[];
  createdAt: string;
  updatedAt: string;
}

/**
 * A settled deal-rate tranche of an account's INR escrow pool (spec 2.4). `remainingInr` is what later
 * payouts may still consume, oldest first.
 */
export interface TrancheRecord {
  dealId: string;
  dealNumber: string;
  rate: string;
  inrAmount: string;
  remainingInr: string;
  settledAt: string;
}

/** The transactions collection. */
export interface TransactionsSlice {
  byId: Record<string, TransactionRecord>;
  /** `${accountId}:${partnerReference}` → transaction id (spec 4.2 lookup by reference). */
  idByPartnerReference: Record<string, string>;
  /** Account id → transaction ids in creation order, so the activity feed reads only its last items. */
  idsByAccount: Record<string, string[]>;
  /** User id → the id of its active (not terminal) transaction (`PENDING_TRANSACTION_EXISTS`). */
  activeByUser: Record<string, string>;
  /** Account id → settled tranches, oldest first. */
  tranchesByAccount: Record<string, TrancheRecord[]>;
  /** Account id → prefunded amount paid out and not yet funded (spec 2.5), decimal string. */
  outstandingUsdByAccount: Record<string, string>;
  /** The sandbox exchange rate (INR per USD) new quotes use; a helper sets it. */
  exchangeRate: string;
  /** Counter behind `D-0001`-style deal numbers. */
  dealSeq: number;
  /** Account id → its completed volume (spec 2.1), kept as transactions complete (operations/volume.ts). */
  volumeByAccount: Record<string, AccountVolumeRecord>;
}

/**
 * An account's completed volume in USD, as decimal strings: all time, and per UTC month (`2026-11`) of completion.
 */
export interface AccountVolumeRecord {
  totalUsd: string;
  byMonth: Record<string, string>;
}

export function emptyTransactions(): TransactionsSlice {
  return {
    byId: keyed(),
    idByPartnerReference: keyed(),
    idsByAccount: keyed(),
    activeByUser: keyed(),
    tranchesByAccount: keyed(),
    outstandingUsdByAccount: keyed(),
    volumeByAccount: keyed(),
    // The sandbox rate new quotes use until a test sets another.
    exchangeRate: SANDBOX_TRANSACTIONS.exchangeRate,
    dealSeq: 0,
  };
}

/** The key of the partner-reference index: references are unique per account. */
export function referenceKey(accountId: string, partnerReference: string): string {
  return `${accountId}:${partnerReference}`;
}
