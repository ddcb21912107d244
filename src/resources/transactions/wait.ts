import type { ClientClock } from '../../core/clock.js';
import { PayoutError } from '../../core/errors.js';
import { type PollOptions, poll, pollSettings, withSignal } from '../../core/poll.js';
import type { RequestOptions } from '../../core/types.js';
import {
  type Allocation,
  type Payout,
  type Transaction,
  terminalTransactionStatuses,
} from '../../schemas/transactions.js';

/** Reads a transaction; the part of the resource the helpers need. */
export interface TransactionReader {
  retrieve(idOrPartnerReference: string, options?: RequestOptions): PromiseLike<Transaction>;
}

/**
 * A transaction reached an end state other than the one waited for (for example `failed` while waiting for
 * `completed`). `transaction` is the last read.
 *
 * @example
 * ```ts
 * import { TransactionStatusError } from 'inr-payouts';
 * const failed = { transaction: { id: 'txn_1', status: 'failed', createdAt: '2024-01-15T10:30:00Z' }, deposit: { network: 'polygon', asset: 'USDC', address: '0xabc', expectedAmount: '100' }, quote: { exchangeRate: 83.2, grossInr: '8320', netInr: '8320' } };
 * const error = new TransactionStatusError(failed, ['completed']);
 * console.log(error.status); // 'failed'
 * ```
 */
export class TransactionStatusError extends PayoutError {
  override name = 'TransactionStatusError';
  /** The end state it reached. */
  readonly status: string;
  /** The transaction as last read. */
  readonly transaction: Transaction;
  constructor(transaction: Transaction, waitedFor: readonly string[]) {
    super(
      `Transaction ${transaction.transaction.id} ended as ${transaction.transaction.status} while waiting for ` +
        `${waitedFor.join(' or ')}: it is final; read it for details or create a new one.`,
    );
    this.status = transaction.transaction.status;
    this.transaction = transaction;
  }
}

/**
 * Options of `transactions.waitForStatus`.
 *
 * @example
 * ```ts
 * import type { WaitForStatusOptions } from 'inr-payouts';
 * const options: WaitForStatusOptions = { statuses: ['payout_completed', 'completed'], interval: 5_000, deadline: 900_000 };
 * ```
 */
export interface WaitForStatusOptions extends PollOptions {
  /** Statuses that end the wait. Default: `completed`, `failed`, `cancelled`. */
  statuses?: readonly string[];
  /** Options for each read (timeout, retries, headers). */
  requestOptions?: RequestOptions;
}

/**
 * Default poll of a transaction status: every 3 s, up to 15 minutes (deposits take confirmations).
 * @example
 * ```ts
 * import { TRANSACTION_POLL } from 'inr-payouts';
 * TRANSACTION_POLL.interval // 3000
 * ```
 */
export const TRANSACTION_POLL = { interval: 3_000, deadline: 900_000 } as const;
/**
 * Default poll of a payout's attribution: every 2 s, up to 2 minutes (computed just after submission).
 * @example
 * ```ts
 * import { ATTRIBUTION_POLL } from 'inr-payouts';
 * ATTRIBUTION_POLL.deadline // 120000
 * ```
 */
export const ATTRIBUTION_POLL = { interval: 2_000, deadline: 120_000 } as const;

const TERMINAL: ReadonlySet<string> = new Set(terminalTransactionStatuses);

export function waitForStatus(
  reader: TransactionReader,
  id: string,
  options: WaitForStatusOptions = {},
  clock?: ClientClock,
): Promise<Transaction> {
  const statuses: readonly string[] = options.statuses ?? terminalTransactionStatuses;
  return poll<Transaction, Transaction>(
    `transaction ${id} to reach ${statuses.join(' or ')}`,
    (signal) => Promise.resolve(reader.retrieve(id, withSignal(options.requestOptions, signal))),
    (tx) => {
      const status = tx.transaction.status;
      if (statuses.includes(status)) return { done: true, value: tx };
      if (TERMINAL.has(status)) throw new TransactionStatusError(tx, statuses);
      return { done: false };
    },
    pollSettings(TRANSACTION_POLL, options, clock),
  );
}

/**
 * A transaction whose payout carries its rate attribution.
 *
 * @example
 * ```ts
 * import type { AttributedTransaction } from 'inr-payouts';
 * const show = (tx: AttributedTransaction) => `${tx.payout.rate} INR/USDT over ${tx.payout.allocations.length} tranche(s)`;
 * ```
 */
export type AttributedTransaction = Transaction & {
  payout: Payout & { rate: string; usdtEquivalent: string; allocations: Allocation[] };
};

/**
 * `true` when the payout carries `rate`, `usdtEquivalent` and `allocations`.
 *
 * @example
 * ```ts
 * import { hasAttribution } from 'inr-payouts';
 * console.log(hasAttribution({ transaction: { id: 't', status: 'completed', createdAt: '' }, deposit: { network: 'polygon', asset: 'USDT', address: '0x', expectedAmount: '10' }, quote: { exchangeRate: 83, grossInr: '830', netInr: '830' } })); // false
 * ```
 */
export function hasAttribution(tx: Transaction): tx is AttributedTransaction {
  const payout = tx.payout;
  return (
    typeof payout?.rate === 'string' &&
    typeof payout.usdtEquivalent === 'string' &&
    Array.isArray(payout.allocations)
  );
}

/**
 * The payout went ahead without a rate attribution and will never get one (spec 2.4 rules 1, 3 and 5): it is
 * not funded from the INR escrow pool, either because it is prefunded (paid on credit) or because the pool's
 * settled tranches could not cover it when it was submitted. `transaction` is the last read.
 *
 * @example
 * ```ts
 * import { UnattributedPayoutError } from 'inr-payouts';
 * try {
 *   await client.transactions.waitForAttribution('order-42');
 * } catch (error) {
 *   if (error instanceof UnattributedPayoutError) console.log(error.transaction.payout?.amountInr);
 * }
 * ```
 */
export class UnattributedPayoutError extends PayoutError {
  override name = 'UnattributedPayoutError';
  /** The transaction as last read. */
  readonly transaction: Transaction;
  constructor(transaction: Transaction) {
    const { id, status } = transaction.transaction;
    const amount = transaction.payout?.amountInr;
    super(
      `The payout of transaction ${id} (${status}${amount ? `, INR ${amount}` : ''}) will never get a rate ` +
        'attribution: it is not funded from an INR escrow pool, because it is a prefunded payout (paid on ' +
        "credit) or because the pool's settled tranches could not cover it when it was submitted (spec 2.4 " +
        'rules 1, 3, 5). Read its amounts from the transaction instead.',
    );
    this.transaction = transaction;
  }
}

export function waitForAttribution(
  reader: TransactionReader,
  id: string,
  options: PollOptions & { requestOptions?: RequestOptions } = {},
  clock?: ClientClock,
): Promise<AttributedTransaction> {
  return poll<Transaction, AttributedTransaction>(
    `the rate attribution of transaction ${id}`,
    (signal) => Promise.resolve(reader.retrieve(id, withSignal(options.requestOptions, signal))),
    (tx) => {
      // A failed or cancelled payout sent no INR, so whatever attribution it shows is not the answer.
      const status = tx.transaction.status;
      if (status === 'failed' || status === 'cancelled') throw new TransactionStatusError(tx, ['a payout']);
      if (hasAttribution(tx)) return { done: true, value: tx };
      // `attributionStatus` is the mock's own (docs/mock-only.md); without it, nothing says an attribution will
      // never come, so the wait runs to its deadline (PollTimeoutError).
      if (tx.payout?.attributionStatus === 'none') throw new UnattributedPayoutError(tx);
      return { done: false };
    },
    pollSettings(ATTRIBUTION_POLL, options, clock),
  );
}
