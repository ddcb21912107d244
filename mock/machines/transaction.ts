/**
 * The transaction lifecycle (spec 3.1; the standard transitions are our decision, docs/assumptions.md) as a
 * pure function `(transaction, event, now) => next`. The flow in `mock/operations/transactions.ts` calls it,
 * then emits the events and schedules the timers; a move the current state does not allow is refused.
 *
 * Standard: created → deposit_pending (seen, 0 confirmations) → deposit_detected (first confirmation) →
 * deposit_confirmed (required confirmations) → payout_processing → completed | failed; created → cancelled
 * when the quote expires unpaid. Prefunded: payout_processing → payout_completed → awaiting_funds →
 * completed when the deposit is confirmed (`deposit.status` moves meanwhile); failed on a payout failure or
 * when the 24-hour funding window passes.
 */
import { MockTransitionError } from '../engine/errors.js';
import { isoAt } from '../engine/timers.js';
import type { TransactionRecord, TransactionStatus } from '../state/transactions.js';
import { firstBlockAt } from './confirmations.js';
import { allowedFrom, findTransition, type Transition } from './transition-table.js';

/** What can happen to a transaction. */
export type TransactionEvent =
  | { type: 'deposit.seen'; amount: string; txHash: string }
  | { type: 'deposit.block'; confirmations: number }
  | { type: 'payout.start'; payoutId: string; amountInr: string }
  | { type: 'payout.complete'; utr: string }
  | { type: 'payout.fail'; code: string; reason: string }
  | { type: 'funds.await' }
  | { type: 'quote.expire' }
  | { type: 'funding.expire' };

/** Conditions on a row of the transaction tables, in the words the diagrams show. */
export type TransactionCondition = 'more confirmations needed' | 'required confirmations reached';

/**
 * The transaction lifecycle per kind, as the rows `applyTransactionEvent` looks the next status up in (and the
 * diagrams in docs/diagrams/ are drawn from). An event with no row from the current status is refused.
 */
export const TRANSACTION_TRANSITIONS: Record<
  TransactionRecord['kind'],
  readonly Transition<TransactionStatus, TransactionEvent['type'], TransactionCondition>[]
> = {
  standard: [
    { from: ['created'], event: 'deposit.seen', to: 'deposit_pending' },
    { from: ['created'], event: 'quote.expire', to: 'cancelled' },
    {
      from: ['deposit_pending', 'deposit_detected'],
      event: 'deposit.block',
      when: 'more confirmations needed',
      to: 'deposit_detected',
    },
    {
      from: ['deposit_pending', 'deposit_detected'],
      event: 'deposit.block',
      when: 'required confirmations reached',
      to: 'deposit_confirmed',
    },
    { from: ['deposit_confirmed'], event: 'payout.start', to: 'payout_processing' },
    { from: ['payout_processing'], event: 'payout.complete', to: 'completed' },
    { from: ['payout_processing'], event: 'payout.fail', to: 'failed' },
  ],
  prefunded: [
    // A prefunded transaction is created paying out: the payout record is attached without a status change.
    { from: ['payout_processing'], event: 'payout.start', to: 'payout_processing' },
    { from: ['payout_processing'], event: 'payout.complete', to: 'payout_completed' },
    { from: ['payout_processing'], event: 'payout.fail', to: 'failed' },
    { from: ['payout_completed'], event: 'funds.await', to: 'awaiting_funds' },
    { from: ['awaiting_funds'], event: 'deposit.seen', to: 'awaiting_funds' },
    {
      from: ['awaiting_funds'],
      event: 'deposit.block',
      when: 'more confirmations needed',
      to: 'awaiting_funds',
    },
    {
      from: ['awaiting_funds'],
      event: 'deposit.block',
      when: 'required confirmations reached',
      to: 'completed',
    },
    { from: ['payout_completed', 'awaiting_funds'], event: 'funding.expire', to: 'failed' },
  ],
};

/** The row `event` takes `txn` along, if the table has one. */
function transitionFor(txn: TransactionRecord, event: TransactionEvent) {
  const { deposit } = txn;
  // A block counts only for a deposit already seen; it confirms when the count reaches the required one.
  const seen = deposit.status !== undefined;
  const reaches = event.type === 'deposit.block' && event.confirmations >= deposit.requiredConfirmations;
  return findTransition(TRANSACTION_TRANSITIONS[txn.kind], txn.status, event.type, (when) =>
    when === 'required confirmations reached' ? seen && reaches : seen && !reaches,
  );
}

/** Whether `event` may happen to `txn` now. */
export function canApply(txn: TransactionRecord, event: TransactionEvent): boolean {
  return transitionFor(txn, event) !== undefined;
}

/**
 * The transaction after `event` at `now` (epoch ms); `txn` is not changed. Throws `MockTransitionError`
 * when the event does not fit the current status.
 */
export function applyTransactionEvent(
  txn: TransactionRecord,
  event: TransactionEvent,
  now: number,
): TransactionRecord {
  const row = transitionFor(txn, event);
  if (!row) {
    throw new MockTransitionError({
      subject: `${txn.kind} transaction ${txn.id}`,
      action: event.type,
      state: txn.status,
      allowed: allowedFrom(TRANSACTION_TRANSITIONS[txn.kind], event.type),
      section: '3.1',
    });
  }
  const at = isoAt(now);
  // Copy on write: only the top level, the deposit and the payout change below, so only they are copied
  // (a deep clone per event was most of a lifecycle's cost: 128 confirmations each copy the record).
  const next: TransactionRecord = { ...txn, deposit: { ...txn.deposit } };
  // Assigned rather than spread in: a conditional spread is a slow generic copy on every confirmation.
  if (txn.payout) next.payout = { ...txn.payout };
  next.updatedAt = at;
  next.status = row.to;
  const { deposit, payout } = next;
  switch (event.type) {
    case 'deposit.seen':
      Object.assign(deposit, {
        status: 'pending',
        receivedAmount: event.amount,
        txHash: event.txHash,
        confirmations: 0,
      });
      return next;
    case 'deposit.block': {
      const { confirmations } = event;
      deposit.confirmations = confirmations;
      if (confirmations >= deposit.requiredConfirmations) {
        deposit.status = 'confirmed';
        deposit.confirmedAt = at;
        return next;
      }
      deposit.status = 'detected';
      // Reads count the blocks mined since from here (machines/confirmations.ts).
      deposit.detectedAt ??= isoAt(firstBlockAt(txn, confirmations, now));
      return next;
    }
    case 'payout.start':
      next.payout = {
        payoutId: event.payoutId,
        rail: 'imps',
        amountInr: event.amountInr,
        status: 'processing',
        initiatedAt: at,
      };
      return next;
    case 'payout.complete':
      if (payout) Object.assign(payout, { status: 'completed', utr: event.utr, completedAt: at });
      return next;
    case 'payout.fail':
      if (payout)
        Object.assign(payout, { status: 'failed', failureCode: event.code, failureReason: event.reason });
      return { ...next, failureCode: event.code, failureReason: event.reason };
    case 'funds.await':
      return next;
    case 'quote.expire':
      return {
        ...next,
        failureCode: 'QUOTE_EXPIRED',
        failureReason: `The quote expired at ${txn.expiresAt} before a deposit arrived`,
      };
    case 'funding.expire':
      if (deposit.status !== 'confirmed') deposit.status = 'failed';
      return {
        ...next,
        failureCode: 'FUNDING_WINDOW_EXPIRED',
        failureReason: `No deposit was sent by ${txn.expiresAt}, the end of the 24-hour funding window after the payout`,
      };
  }
}

/** Whether `status` is final (spec 3.1: completed, failed, cancelled). */
export function isTerminal(status: TransactionStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}
