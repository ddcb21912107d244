/**
 * The money flow: applies the pure transitions of `mock/machines/transaction.ts` to stored transactions,
 * emits the webhook events each one triggers (spec 6.2), keeps the indices and the prefunded credit in step,
 * and schedules the next step on the virtual clock. Used by the transaction routes, their timer tasks and
 * the test helpers, so every path moves a transaction the same way.
 */
import { Decimal } from 'decimal.js';
import { MIN_AMOUNT_USD } from '../../src/schemas/common.js';
import type { WebhookEventDataMap } from '../../src/webhooks/index.js';
import { emitEvent } from '../core/events.js';
import { nextId, randomDigits, randomHex } from '../core/ids.js';
import type { MockState } from '../core/state.js';
import { cancelTimer, schedule } from '../core/timers.js';
import { allocate } from '../machines/attribution.js';
import { NETWORK_CONFIRMATIONS } from '../machines/networks.js';
import { releaseCredit } from '../machines/prefunded.js';
import { requote } from '../machines/quote.js';
import { applyTransactionEvent, isTerminal, type TransactionEvent } from '../machines/transaction.js';
import { readEligibility } from '../machines/transaction-eligibility.js';
import { SANDBOX_TRANSACTIONS } from '../sandbox-values.js';
import type { TransactionRecord } from '../state/transactions.js';

/** Timer kinds of the money flow; their tasks are in `mock/handlers/transaction-tasks.ts`. */
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

/**
 * The stored transaction, or undefined.
 * @example
 * const txn = findTransaction(state, 'txn_…');
 */
export function findTransaction(state: MockState, id: string): TransactionRecord | undefined {
  return state.transactions.byId[id];
}

/**
 * Applies `event` to the stored transaction and stores the result; releases the user's active slot when
 * the transaction reaches a final status.
 * @example
 * const next = move(state, txn, { type: 'deposit.block' });
 */
export function move(state: MockState, txn: TransactionRecord, event: TransactionEvent): TransactionRecord {
  const next = applyTransactionEvent(txn, event, state.clock.now);
  state.transactions.byId[txn.id] = next;
  if (isTerminal(next.status)) {
    if (state.transactions.activeByUser[next.userId] === next.id)
      delete state.transactions.activeByUser[next.userId];
    for (const timerId of next.timerIds) cancelTimer(state, timerId);
    next.timerIds = [];
  }
  return next;
}

/** Transaction events with their payload types from `inr-payouts/webhooks`, so the mock emits exactly those. */
type TxnEventType = Extract<keyof WebhookEventDataMap, `transaction.${string}`>;

function emitTxn<T extends TxnEventType>(
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

function depositData(txn: TransactionRecord) {
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

/** Schedules a step of the flow; its task re-checks the status, so a step made stale by a helper is a no-op. */
function later(state: MockState, txn: TransactionRecord, kind: string, afterMs: number): string {
  return schedule(state, kind, afterMs, { transactionId: txn.id } satisfies TxnTimerPayload);
}

/**
 * A deposit is seen on the chain (spec 3.1 `deposit_pending`): confirmations then arrive one block at a time.
 * @example
 * depositSeen(state, txn, '100', '0xabc…');
 */
export function depositSeen(
  state: MockState,
  txn: TransactionRecord,
  amount: string,
  txHash?: string,
): TransactionRecord {
  const hash = txHash ?? (txn.network === 'solana' ? randomHex(state, 32) : `0x${randomHex(state, 32)}`);
  // A paid quote no longer expires; the prefunded funding window stays armed until the deposit is confirmed.
  if (txn.kind === 'standard') {
    for (const timerId of txn.timerIds) cancelTimer(state, timerId);
    txn.timerIds = [];
  }
  const next = move(state, txn, { type: 'deposit.seen', amount, txHash: hash });
  later(state, next, TXN_TIMERS.block, NETWORK_CONFIRMATIONS[next.network].blockMs);
  return next;
}

/**
 * One more block confirms the deposit (spec 6.2 `deposit_detected` on the first, `deposit_confirmed` on the
 * last); a confirmed standard deposit starts the payout, a confirmed prefunded deposit restores the credit.
 * @example
 * depositBlock(state, txn);
 */
export function depositBlock(state: MockState, txn: TransactionRecord): void {
  const next = move(state, txn, { type: 'deposit.block' });
  const confirmations = next.deposit.confirmations ?? 0;
  if (confirmations === 1) emitTxn(state, next, 'transaction.deposit_detected', depositData(next));
  if (next.deposit.status !== 'confirmed') {
    later(state, next, TXN_TIMERS.block, NETWORK_CONFIRMATIONS[next.network].blockMs);
    return;
  }
  emitTxn(state, next, 'transaction.deposit_confirmed', depositData(next));
  // The sweep runs beside the payout and never holds it up; its own timer is not cancelled by completion.
  next.sweep = { status: 'pending' };
  schedule(state, TXN_TIMERS.sweep, SWEEP_MS, { transactionId: next.id } satisfies TxnTimerPayload);
  if (next.kind === 'standard') {
    startPayout(state, next);
    return;
  }
  // Prefunded: confirmed receipt subtracts the amount from outstandingUsd (spec 2.5); a shortfall stays owed.
  if (next.creditHeld) {
    const received = Decimal.min(next.deposit.receivedAmount ?? '0', next.amount).toFixed();
    const { outstandingUsdByAccount } = state.transactions;
    outstandingUsdByAccount[next.accountId] = releaseCredit(
      outstandingUsdByAccount[next.accountId] ?? '0',
      received,
    );
    next.creditHeld = false;
  }
}

/**
 * Starts the payout leg (spec 3.1 `payout_processing`, 6.2 `payout_initiated`), after the payout-time checks
 * of 7.3 (a failing check fails the payout with its identifier). Standard payouts pay the received amount,
 * at most the expected one, at the quoted rate and fee.
 * @example
 * startPayout(state, txn);
 */
export function startPayout(state: MockState, txn: TransactionRecord): TransactionRecord {
  const received = txn.deposit.receivedAmount ?? txn.amount;
  const paid = Decimal.min(received, txn.amount).toFixed();
  const amountInr = new Decimal(paid).eq(txn.amount) ? txn.quote.netInr : requote(txn.quote, paid).netInr;
  let next = txn;
  if (txn.kind === 'standard') {
    next = move(state, txn, { type: 'payout.start', payoutId: nextId(state, 'pay'), amountInr });
  }
  const eligibility = readEligibility(state, next.userId);
  const refusal = new Decimal(paid).lt(MIN_AMOUNT_USD)
    ? { code: 'AMOUNT_TOO_LOW', reason: `The deposit of ${received} USD is below the minimum of 10 USD` }
    : !eligibility.kycVerified
      ? {
          code: 'KYC_NOT_VERIFIED',
          reason: `KYC status is ${eligibility.kycStatus} at payout time, not verified`,
        }
      : !eligibility.levelSufficient
        ? { code: 'KYC_LEVEL_INSUFFICIENT', reason: 'The user must complete at least basic KYC' }
        : !eligibility.bank
          ? { code: 'BANK_ACCOUNT_INVALID', reason: 'The bank account was not found or is not verified' }
          : undefined;
  if (refusal) return failPayout(state, next, refusal.code, refusal.reason);
  emitTxn(state, next, 'transaction.payout_initiated', {
    status: next.status,
    amountInr: next.payout?.amountInr ?? amountInr,
    rail: 'imps',
  });
  // Attribution is computed just after submission (2.4 rule 4), so never in the create answer.
  if (next.kind === 'standard') later(state, next, TXN_TIMERS.attribute, ATTRIBUTION_DELAY_MS);
  const settle = later(state, next, TXN_TIMERS.payoutSettle, PAYOUT_SETTLE_MS);
  if (next.payout) next.payout.timerId = settle;
  return next;
}

/**
 * Attributes a standard payout to the pool's tranches, FIFO (spec 2.4), once; a payout the pool cannot
 * cover goes unattributed (rule 5: attribution never blocks the payment).
 * @example
 * attribute(state, txn);
 */
export function attribute(state: MockState, txn: TransactionRecord): void {
  const { payout } = txn;
  if (txn.kind !== 'standard' || !payout || payout.attribution || payout.status === 'failed') return;
  const tranches = state.transactions.tranchesByAccount[txn.accountId];
  if (!tranches?.length) return;
  const result = allocate(tranches, payout.amountInr);
  if (!result.attribution) return;
  payout.attribution = result.attribution;
  state.transactions.tranchesByAccount[txn.accountId] = result.remainingTranches;
}

/**
 * The bank accepted the transfer (spec 6.2 `payout_completed`, with the attribution when there is one).
 * @example
 * completePayout(state, txn);
 */
export function completePayout(state: MockState, txn: TransactionRecord): TransactionRecord {
  attribute(state, txn);
  if (txn.payout?.timerId) cancelTimer(state, txn.payout.timerId);
  const next = move(state, txn, { type: 'payout.complete', utr: `SBX${randomDigits(state, 12)}` });
  const { payout } = next;
  if (!payout) return next;
  payout.timerId = undefined;
  const bank = readEligibility(state, next.userId).bank;
  const user = state.users.byId[next.userId];
  emitTxn(state, next, 'transaction.payout_completed', {
    merchant_id: next.accountId,
    payoutId: payout.payoutId,
    orderId: next.partnerReference ?? next.id,
    amount: Number(payout.amountInr),
    currency: 'INR',
    status: 'SUCCESS',
    utr: payout.utr ?? '',
    provider: SANDBOX_TRANSACTIONS.payoutProvider,
    receiver_name: bank?.accountHolderName ?? user?.name ?? '',
    bank_account_masked: bank?.maskedAccountNumber ?? '',
    ifsc_code: bank?.ifsc ?? '',
    completedAt: payout.completedAt ?? '',
    message: 'Payout completed successfully',
    ...payout.attribution,
  });
  if (next.kind === 'prefunded') later(state, next, TXN_TIMERS.awaitFunds, AWAIT_FUNDS_MS);
  return next;
}

/**
 * The payout failed (spec 6.2 `payout_failed`, 7.3 identifiers). A failed prefunded payout sent no INR, so
 * its amount leaves `outstandingUsd`.
 * @example
 * failPayout(state, txn, 'PAYOUT_FAILED', 'The payout provider rejected the transfer');
 */
export function failPayout(
  state: MockState,
  txn: TransactionRecord,
  code: string,
  reason: string,
): TransactionRecord {
  if (txn.payout?.timerId) cancelTimer(state, txn.payout.timerId);
  const next = move(state, txn, { type: 'payout.fail', code, reason });
  if (next.payout) next.payout.timerId = undefined;
  if (next.kind === 'prefunded' && next.creditHeld) {
    const { outstandingUsdByAccount } = state.transactions;
    outstandingUsdByAccount[next.accountId] = releaseCredit(
      outstandingUsdByAccount[next.accountId] ?? '0',
      next.amount,
    );
    next.creditHeld = false;
  }
  emitTxn(state, next, 'transaction.payout_failed', {
    status: next.status,
    amountInr: next.payout?.amountInr ?? next.quote.netInr,
    code,
    reason,
  });
  return next;
}

/**
 * The confirmed deposit's sweep into the settlement pool lands (or, for the sandbox sweep-failure amount,
 * fails); the transaction's status is not affected.
 * @example
 * settleSweep(state, txn);
 */
export function settleSweep(state: MockState, txn: TransactionRecord): void {
  if (txn.sweep?.status !== 'pending') return;
  const amount = txn.deposit.receivedAmount ?? txn.amount;
  const base = { network: txn.network, asset: txn.asset, amount };
  const at = new Date(state.clock.now).toISOString();
  if (new Decimal(amount).eq(SANDBOX_TRANSACTIONS.sweepFailureAmount)) {
    const reason = 'The sweep transaction reverted on chain (sandbox sweep-failure amount)';
    txn.sweep = { status: 'failed', reason, at };
    emitTxn(state, txn, 'transaction.sweep_failed', { ...base, reason });
    return;
  }
  const sweepTxHash = txn.network === 'solana' ? randomHex(state, 32) : `0x${randomHex(state, 32)}`;
  txn.sweep = { status: 'confirmed', txHash: sweepTxHash, at };
  emitTxn(state, txn, 'transaction.sweep_confirmed', { ...base, sweepTxHash });
}

/**
 * Settles a payout at its scheduled time: fails it for the sandbox failure amount, completes it otherwise.
 * @example
 * settlePayout(state, txn);
 */
export function settlePayout(state: MockState, txn: TransactionRecord): void {
  if (new Decimal(txn.amount).eq(SANDBOX_TRANSACTIONS.payoutFailureAmount)) {
    failPayout(
      state,
      txn,
      'PAYOUT_FAILED',
      'The payout provider rejected the transfer (sandbox failure amount)',
    );
    return;
  }
  completePayout(state, txn);
}
