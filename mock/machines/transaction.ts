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
import { MockTransitionError } from '../core/errors.js';
import { isoAt } from '../core/timers.js';
import type { TransactionRecord, TransactionStatus } from '../state/transactions.js';

/**
 * What can happen to a transaction.
 * @example
 * const event: TransactionEvent = { type: 'deposit.seen', amount: '100', txHash: '0xabc' };
 */
export type TransactionEvent =
  | { type: 'deposit.seen'; amount: string; txHash: string }
  | { type: 'deposit.block' }
  | { type: 'payout.start'; payoutId: string; amountInr: string }
  | { type: 'payout.complete'; utr: string }
  | { type: 'payout.fail'; code: string; reason: string }
  | { type: 'funds.await' }
  | { type: 'quote.expire' }
  | { type: 'funding.expire' };

/** The statuses each event is allowed from, per kind. */
const ALLOWED: Record<TransactionRecord['kind'], Record<TransactionEvent['type'], TransactionStatus[]>> = {
  standard: {
    'deposit.seen': ['created'],
    'deposit.block': ['deposit_pending', 'deposit_detected'],
    'payout.start': ['deposit_confirmed'],
    'payout.complete': ['payout_processing'],
    'payout.fail': ['payout_processing'],
    'funds.await': [],
    'quote.expire': ['created'],
    'funding.expire': [],
  },
  prefunded: {
    'deposit.seen': ['awaiting_funds'],
    'deposit.block': ['awaiting_funds'],
    'payout.start': ['payout_processing'],
    'payout.complete': ['payout_processing'],
    'payout.fail': ['payout_processing'],
    'funds.await': ['payout_completed'],
    'quote.expire': [],
    'funding.expire': ['payout_completed', 'awaiting_funds'],
  },
};

/**
 * Whether `event` may happen to `txn` now.
 * @example
 * if (canApply(txn, { type: 'quote.expire' })) next = applyTransactionEvent(txn, { type: 'quote.expire' }, now);
 */
export function canApply(txn: TransactionRecord, event: TransactionEvent): boolean {
  if (event.type === 'deposit.block' && txn.kind === 'prefunded' && txn.deposit.status === undefined)
    return false;
  return ALLOWED[txn.kind][event.type].includes(txn.status);
}

/**
 * The transaction after `event` at `now` (epoch ms); `txn` is not changed. Throws `MockTransitionError`
 * when the event does not fit the current status.
 * @example
 * const next = applyTransactionEvent(txn, { type: 'deposit.block' }, Date.now());
 */
export function applyTransactionEvent(
  txn: TransactionRecord,
  event: TransactionEvent,
  now: number,
): TransactionRecord {
  if (!canApply(txn, event)) {
    throw new MockTransitionError({
      subject: `${txn.kind} transaction ${txn.id}`,
      action: event.type,
      state: txn.status,
      allowed: ALLOWED[txn.kind][event.type],
    });
  }
  const at = isoAt(now);
  // Copy on write: only the top level, the deposit and the payout change below, so only they are copied
  // (a deep clone per event was most of a lifecycle's cost: 128 confirmations each copy the record).
  const next: TransactionRecord = {
    ...txn,
    deposit: { ...txn.deposit },
    ...(txn.payout ? { payout: { ...txn.payout } } : {}),
  };
  next.updatedAt = at;
  const { deposit, payout } = next;
  switch (event.type) {
    case 'deposit.seen':
      Object.assign(deposit, {
        status: 'pending',
        receivedAmount: event.amount,
        txHash: event.txHash,
        confirmations: 0,
      });
      if (next.kind === 'standard') next.status = 'deposit_pending';
      return next;
    case 'deposit.block': {
      const confirmations = (deposit.confirmations ?? 0) + 1;
      deposit.confirmations = confirmations;
      if (confirmations >= deposit.requiredConfirmations) {
        deposit.status = 'confirmed';
        deposit.confirmedAt = at;
        next.status = next.kind === 'standard' ? 'deposit_confirmed' : 'completed';
      } else {
        deposit.status = 'detected';
        if (next.kind === 'standard') next.status = 'deposit_detected';
      }
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
      next.status = 'payout_processing';
      return next;
    case 'payout.complete':
      if (payout) Object.assign(payout, { status: 'completed', utr: event.utr, completedAt: at });
      next.status = next.kind === 'standard' ? 'completed' : 'payout_completed';
      return next;
    case 'payout.fail':
      if (payout)
        Object.assign(payout, { status: 'failed', failureCode: event.code, failureReason: event.reason });
      return { ...next, status: 'failed', failureCode: event.code, failureReason: event.reason };
    case 'funds.await':
      next.status = 'awaiting_funds';
      return next;
    case 'quote.expire':
      return {
        ...next,
        status: 'cancelled',
        failureCode: 'QUOTE_EXPIRED',
        failureReason: `The quote expired at ${txn.expiresAt} before a deposit arrived`,
      };
    case 'funding.expire':
      if (deposit.status !== 'confirmed') deposit.status = 'failed';
      return {
        ...next,
        status: 'failed',
        failureCode: 'FUNDING_WINDOW_EXPIRED',
        failureReason: `No deposit was sent by ${txn.expiresAt}, the end of the 24-hour funding window after the payout`,
      };
  }
}

/**
 * Whether `status` is final (spec 3.1: completed, failed, cancelled).
 * @example
 * isTerminal('completed'); // true
 */
export function isTerminal(status: TransactionStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}
