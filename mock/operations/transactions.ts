/**
 * The money flow's common steps: applies the pure transitions of `mock/machines/transaction.ts` to stored
 * transactions, emits the webhook events each one triggers (spec 6.2) and schedules the next step on the
 * virtual clock. The deposit leg is in `operations/deposits.ts`, the payout leg in `operations/payouts.ts`; the routes,
 * their timer tasks and the test helpers all go through them, so every path moves a transaction the same way.
 */
import type { Transaction } from '../../src/schemas/transactions.js';
import type { WebhookEventDataMap } from '../../src/webhooks/index.js';
import { emitEvent } from '../engine/events.js';
import type { Explanation } from '../engine/explain.js';
import type { ServiceInternals } from '../engine/internals.js';
import { defineTask, type TaskDefinition } from '../engine/tasks.js';
import { cancelTimer, schedule, type When } from '../engine/timers.js';
import { releaseCredit } from '../machines/prefunded.js';
import {
  applyTransactionEvent,
  canApply,
  isTerminal,
  type TransactionEvent,
} from '../machines/transaction.js';
import type { MockState } from '../state/mock-state.js';
import type { TransactionRecord } from '../state/transactions.js';
import { recordTransition } from './transitions.js';
import { countCompleted } from './volume.js';

/** Timer kinds of the money flow; their tasks are in `operations/transaction-tasks.ts` and, the quote expiry, `operations/create-transaction.ts`. */
export const TXN_TIMERS = {
  quoteExpire: 'transaction.quote_expire',
  block: 'transaction.block',
  attribute: 'transaction.payout_attribute',
  payoutSettle: 'transaction.payout_settle',
  awaitFunds: 'transaction.await_funds',
  fundingExpire: 'transaction.funding_expire',
  sweep: 'transaction.sweep',
} as const;

/** Payload of every money-flow timer. */
export interface TxnTimerPayload {
  transactionId: string;
}

/** Virtual time from payout initiation to the bank's answer (docs/assumptions.md). */
export const PAYOUT_SETTLE_MS = 10_000;
/** Virtual time from payout submission to its rate attribution ("just after", spec 2.4 rule 4). */
export const ATTRIBUTION_DELAY_MS = 1_000;
/** Virtual time from a confirmed deposit to its sweep into the settlement pool being confirmed on chain. */
export const SWEEP_MS = 30_000;
/** Virtual time from `payout_completed` to `awaiting_funds` for a prefunded payout. */
export const AWAIT_FUNDS_MS = 1_000;

/** The stored transaction, or undefined. */
export function findTransaction(state: MockState, id: string): TransactionRecord | undefined {
  return state.transactions.byId[id];
}

/**
 * Sets the exchange rate (INR per USD, a positive decimal string) that new quotes use; quotes already given keep theirs.
 */
export function setExchangeRate(state: MockState, rate: string): void {
  state.transactions.exchangeRate = rate;
}

/**
 * Applies `event` to the stored transaction and stores the result; releases the user's active slot when
 * the transaction reaches a final status. `explanation` says which rule or sandbox value decided the move.
 */
export function move(
  mock: ServiceInternals,
  txn: TransactionRecord,
  event: TransactionEvent,
  explanation?: Explanation,
): TransactionRecord {
  const { state } = mock;
  const next = applyTransactionEvent(txn, event, state.clock.now);
  state.transactions.byId[txn.id] = next;
  // A confirmation that leaves the status where it was is a timer in the journal, not a transition.
  if (next.status !== txn.status)
    recordTransition(mock, {
      resource: 'transaction',
      id: next.id,
      machine: `transaction-${next.kind}`,
      from: txn.status,
      to: next.status,
      trigger: event.type,
      userId: next.userId,
      transactionId: next.id,
      explanation,
    });
  if (next.status === 'completed' && txn.status !== 'completed') countCompleted(state, next);
  if (isTerminal(next.status)) {
    if (state.transactions.activeByUser[next.userId] === next.id)
      delete state.transactions.activeByUser[next.userId];
    for (const timerId of next.timerIds) cancelTimer(state, timerId);
    next.timerIds = [];
  }
  return next;
}

/** Applies `event` when the transaction's status still allows it (a helper may have moved it first). */
export function moveIfAllowed(mock: ServiceInternals, txn: TransactionRecord, event: TransactionEvent): void {
  if (canApply(txn, event)) move(mock, txn, event);
}

/** A money-flow timer's task: runs `step` on the timer's transaction, when it is still stored. */
export function txnTask(
  kind: string,
  step: (mock: ServiceInternals, txn: TransactionRecord, now: number) => void,
): TaskDefinition<TxnTimerPayload> {
  return defineTask<TxnTimerPayload>(kind, ({ transactionId }, { state, mock, now }) => {
    const txn = findTransaction(state, transactionId);
    if (txn) step(mock, txn, now);
  });
}

/** A prefunded transaction's held credit is given back (spec 2.5): `amountUsd` leaves `outstandingUsd`, once. */
export function releaseHeldCredit(state: MockState, txn: TransactionRecord, amountUsd: string): void {
  if (!txn.creditHeld) return;
  const owed = state.transactions.outstandingUsdByAccount;
  owed[txn.accountId] = releaseCredit(owed[txn.accountId] ?? '0', amountUsd);
  txn.creditHeld = false;
}

/** Transaction events with their payload types from `inr-payouts/webhooks`, so the mock emits exactly those. */
type TxnEventType = Extract<keyof WebhookEventDataMap, `transaction.${string}`>;

/** Emits a transaction event with its documented payload type. */
export function emitTxn<T extends TxnEventType>(
  state: MockState,
  txn: TransactionRecord,
  type: T,
  data: Omit<WebhookEventDataMap[T], 'transactionId'>,
): void {
  const payload: WebhookEventDataMap[T] = { transactionId: txn.id, ...data } as WebhookEventDataMap[T];
  emitEvent(state, txn.accountId, type, payload as unknown as Record<string, unknown>, {
    transactionId: txn.id,
  });
}

/** The deposit payload of `deposit_detected` and `deposit_confirmed`. */
export function depositData(txn: TransactionRecord) {
  const { deposit } = txn;
  return {
    status: txn.status,
    network: txn.network,
    asset: txn.asset,
    txHash: deposit.txHash ?? '',
    receivedAmount: deposit.receivedAmount ?? '0',
    expectedAmount: deposit.expectedAmount,
    confirmations: deposit.confirmations ?? 0,
    confirmedAt: deposit.confirmedAt,
  };
}

/**
 * Schedules a step of the flow, after a delay or at a time; its task re-checks the status, so a step made stale
 * by a helper is a no-op.
 */
export function later(state: MockState, txn: TransactionRecord, kind: string, when: When): string {
  return schedule(state, kind, when, { transactionId: txn.id } satisfies TxnTimerPayload);
}

/**
 * The wire form of a read (spec 2.4). `payout` is `{ status: 'pending' }` until the payout leg starts; the
 * attribution only once it is computed; a failure's identifier rides on `transaction` and `payout` as `failureCode`.
 */
export function transactionData(txn: TransactionRecord): Transaction {
  const { deposit, payout } = txn;
  return {
    transaction: {
      id: txn.id,
      status: txn.status,
      partnerReference: txn.partnerReference,
      createdAt: txn.createdAt,
      updatedAt: txn.updatedAt,
      failureCode: txn.failureCode,
      failureReason: txn.failureReason,
    },
    deposit: {
      network: txn.network,
      asset: txn.asset,
      address: txn.depositAddress,
      expectedAmount: deposit.expectedAmount,
      receivedAmount: deposit.receivedAmount,
      txHash: deposit.txHash,
      status: deposit.status,
      confirmations: deposit.confirmations,
      requiredConfirmations: deposit.requiredConfirmations,
      confirmedAt: deposit.confirmedAt,
    },
    quote: { ...txn.quote, exchangeRate: Number(txn.quote.exchangeRate) },
    // The four objects always (2.4): before the payout leg starts, a `pending` payout with nothing else.
    payout: !payout
      ? { status: 'pending' }
      : {
          rail: payout.rail,
          amountInr: payout.amountInr,
          status: payout.status,
          utr: payout.utr,
          completedAt: payout.completedAt,
          failureCode: payout.failureCode,
          failureReason: payout.failureReason,
          rate: payout.attribution?.rate,
          usdtEquivalent: payout.attribution?.usdtEquivalent,
          allocations: payout.attribution?.allocations.map((a) => ({ ...a })),
          attributionStatus: payout.attributionStatus,
        },
  };
}
