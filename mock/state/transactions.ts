/**
 * Transactions (spec 2.4, 3.1). A minimal start: the money flows extend `TransactionRecord` (both legs,
 * quote, payout, attribution) and add collections (deal tranches, indices) to `TransactionsSlice`.
 */
import type { AssetInput, NetworkInput } from '../../src/schemas/common.js';

/**
 * Transaction status values (spec 3.1, including the prefunded ones).
 * @example
 * const status: TransactionStatus = 'deposit_pending';
 */
export type TransactionStatus =
  | 'created'
  | 'deposit_pending'
  | 'deposit_detected'
  | 'deposit_confirmed'
  | 'payout_processing'
  | 'payout_completed'
  | 'awaiting_funds'
  | 'completed'
  | 'failed'
  | 'cancelled';

/**
 * A transaction as the mock stores it. Money is decimal strings.
 * @example
 * const txn = state.transactions.byId['txn_…'];
 */
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
  createdAt: string;
  updatedAt: string;
}

/**
 * The transactions collection.
 * @example
 * const slice = emptyTransactions();
 */
export interface TransactionsSlice {
  byId: Record<string, TransactionRecord>;
  /** `${accountId}:${partnerReference}` → transaction id (spec 4.2 lookup by reference). */
  idByPartnerReference: Record<string, string>;
}

/**
 * An empty transactions collection.
 * @example
 * const slice = emptyTransactions();
 */
export function emptyTransactions(): TransactionsSlice {
  return { byId: {}, idByPartnerReference: {} };
}
