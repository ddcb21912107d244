import type { ClientClock } from '../../core/clock.js';
import { PayoutError } from '../../core/errors.js';
import { type PollOptions, poll, pollSettings, withSignal } from '../../core/poll.js';
import type { RequestOptions } from '../../core/types.js';
import { confirmationMs } from '../../schemas/confirmations.js';
import {
  type Allocation,
  type Payout,
  type Transaction,
  type TransactionStatus,
  terminalTransactionStatuses,
  transactionStatuses,
} from '../../schemas/transactions.js';

/** Reads a transaction; the part of the resource the helpers need. */
export interface TransactionReader {
  retrieve(idOrPartnerReference: string, options?: RequestOptions): PromiseLike<Transaction>;
}

/**
 * A transaction reached an end state other than the one waited for (`failed` while waiting for `completed`).
 * @example
 * ```ts
 * import { TransactionStatusError } from 'inr-payouts';
 * await client.transactions.waitForStatus('order-42').catch((error: unknown) => {
 *   if (error instanceof TransactionStatusError) console.log(error.status, error.transaction.payout?.status);
 * });
 * ```
 */
export class TransactionStatusError extends PayoutError {
  override name = 'TransactionStatusError';
  /** The end state it reached. */
  readonly status: string;
  /** As last read. */
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

/** Options of `transactions.waitForStatus`. */
export interface WaitForStatusOptions extends PollOptions {
  /** Statuses that end the wait (default `completed`, `failed`, `cancelled`); a misspelt one fails to compile. */
  statuses?: readonly TransactionStatus[];
  /** Options for each read (timeout, retries, headers). */
  requestOptions?: RequestOptions;
}

/** Default poll of a transaction status: every 3 s, up to 15 minutes (deposits take confirmations). */
export const TRANSACTION_POLL = { interval: 3_000, deadline: 900_000 } as const;
/** Default poll of a payout's attribution: every 2 s, up to 2 minutes once the payout starts (spec 2.4 rule 4). */
export const ATTRIBUTION_POLL = { interval: 2_000, deadline: 120_000 } as const;

const TERMINAL: ReadonlySet<string> = new Set(terminalTransactionStatuses);
const KNOWN: ReadonlySet<string> = new Set(transactionStatuses);

export function waitForStatus(
  reader: TransactionReader,
  id: string,
  options: WaitForStatusOptions = {},
  clock?: ClientClock,
): Promise<Transaction> {
  const statuses: readonly string[] = options.statuses ?? terminalTransactionStatuses;
  const unknown = statuses.filter((status) => !KNOWN.has(status));
  if (unknown.length > 0)
    return Promise.reject(
      new TypeError(
        `waitForStatus: unknown status ${unknown.join(', ')}, which would never come; use ${transactionStatuses.join(', ')}`,
      ),
    );
  return poll<Transaction, Transaction>(
    `transaction ${id} to reach ${statuses.join(' or ')}`,
    (signal) => reader.retrieve(id, withSignal(options.requestOptions, signal)),
    (tx) => {
      const status = tx.transaction.status;
      if (statuses.includes(status)) return { done: true, value: tx };
      if (TERMINAL.has(status)) throw new TransactionStatusError(tx, statuses);
      return { done: false };
    },
    pollSettings(TRANSACTION_POLL, options, clock),
  );
}

/** A transaction whose payout carries its rate attribution. */
export type AttributedTransaction = Transaction & {
  payout: Payout & { rate: string; usdtEquivalent: string; allocations: Allocation[] };
};

/**
 * `true` when the payout carries `rate`, `usdtEquivalent` and `allocations`.
 * @example
 * ```ts
 * import { hasAttribution } from 'inr-payouts';
 * const tx = await client.transactions.retrieve('order-42').catch(() => undefined);
 * if (tx && hasAttribution(tx)) console.log(tx.payout.rate, tx.payout.allocations.length);
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
 * The payout will never get a rate attribution (spec 2.4 rules 1, 3, 5): it is prefunded, or the INR escrow
 * pool's settled tranches could not cover it when it was submitted.
 * @example
 * ```ts
 * import { UnattributedPayoutError } from 'inr-payouts';
 * await client.transactions.waitForAttribution('order-42').catch((error: unknown) => {
 *   if (error instanceof UnattributedPayoutError) console.log(error.transaction.payout?.amountInr);
 * });
 * ```
 */
export class UnattributedPayoutError extends PayoutError {
  override name = 'UnattributedPayoutError';
  /** As last read. */
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

// The prefunded flow's statuses after its payout: paid on credit, never from the pool (2.4 rules 1, 3).
const PREFUNDED_PAID: ReadonlySet<string> = new Set(['payout_completed', 'awaiting_funds']);

/** Ms the stage a status begins may take until the attribution: the deposit as long as `waitForStatus` waits. */
function allowance(tx: Transaction): number {
  const { status } = tx.transaction;
  if (status === 'created') return TRANSACTION_POLL.deadline;
  if (status === 'deposit_pending' || status === 'deposit_detected')
    return confirmationMs(tx.deposit.network) + ATTRIBUTION_POLL.deadline;
  return ATTRIBUTION_POLL.deadline;
}

const NO_DEPOSIT =
  'it is still created: the payout starts only after a deposit and its confirmations (against the mock, call ' +
  'mock.helpers.transactions.simulateDeposit first).';

export function waitForAttribution(
  reader: TransactionReader,
  id: string,
  options: PollOptions & { requestOptions?: RequestOptions } = {},
  clock?: ClientClock,
): Promise<AttributedTransaction> {
  let stage: string | undefined;
  return poll<Transaction, AttributedTransaction>(
    `the rate attribution of transaction ${id}`,
    (signal) => reader.retrieve(id, withSignal(options.requestOptions, signal)),
    (tx) => {
      // A failed or cancelled payout sent no INR, whatever attribution it shows.
      const status = tx.transaction.status;
      if (status === 'failed' || status === 'cancelled') throw new TransactionStatusError(tx, ['a payout']);
      if (hasAttribution(tx)) return { done: true, value: tx };
      // `attributionStatus` is the mock's own (docs/mock-only.md); without it the wait runs to its deadline.
      if (tx.payout?.attributionStatus === 'none' || PREFUNDED_PAID.has(status))
        throw new UnattributedPayoutError(tx);
      const hint = status === 'created' ? NO_DEPOSIT : undefined;
      // Without a deadline of the caller's, each stage gets its time from when it is first seen.
      if (options.deadline !== undefined || status === stage) return { done: false, hint };
      stage = status;
      return { done: false, allow: allowance(tx), hint };
    },
    pollSettings(ATTRIBUTION_POLL, options, clock),
  );
}
