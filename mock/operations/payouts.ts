/**
 * The payout leg (spec 2.4, 3.1, 6.2, 7.3): payout-time checks, submission, FIFO rate attribution just after,
 * and the bank's answer (completed or failed), with the prefunded credit kept in step.
 */
import { Decimal } from 'decimal.js';
import { MIN_AMOUNT_USD } from '../../src/schemas/common.js';
import { parseDuration } from '../engine/duration.js';
import type { Explanation } from '../engine/explain.js';
import { nextId, randomDigits } from '../engine/ids.js';
import type { ServiceInternals } from '../engine/internals.js';
import { cancelTimer, schedule } from '../engine/timers.js';
import { allocate, release } from '../machines/attribution.js';
import { requote } from '../machines/quote.js';
import { readEligibility } from '../machines/transaction-eligibility.js';
import { refusalRule } from '../observe/refusals.js';
import { SANDBOX_EXPLANATIONS } from '../sandbox-explanations.js';
import { SANDBOX_TRANSACTIONS } from '../sandbox-values.js';
import type { TransactionRecord } from '../state/transactions.js';
import {
  ATTRIBUTION_DELAY_MS,
  AWAIT_FUNDS_MS,
  emitTxn,
  later,
  move,
  PAYOUT_SETTLE_MS,
  releaseHeldCredit,
  TXN_TIMERS,
} from './transactions.js';
import { recordTxnPart } from './transitions.js';

/**
 * Starts the payout leg (spec 3.1 `payout_processing`, 6.2 `payout_initiated`), after the payout-time checks
 * of 7.3 (a failing check fails the payout with its identifier). Standard payouts pay the received amount,
 * at most the expected one, at the quoted rate and fee.
 */
export function startPayout(mock: ServiceInternals, txn: TransactionRecord): TransactionRecord {
  const { state } = mock;
  const received = txn.deposit.receivedAmount ?? txn.amount;
  const paid = Decimal.min(received, txn.amount).toFixed();
  const amountInr = new Decimal(paid).eq(txn.amount) ? txn.quote.netInr : requote(txn.quote, paid).netInr;
  let next = txn;
  if (txn.kind === 'standard') {
    next = move(mock, txn, { type: 'payout.start', payoutId: nextId(state, 'pay'), amountInr });
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
  if (refusal) {
    const rule = refusalRule(refusal.code);
    const explanation = {
      rule: refusal.code,
      because: refusal.reason,
      section: rule.section ?? '7.3',
      // At payout time the amount is what arrived, so it is the deposit that must change.
      change: refusal.code === 'AMOUNT_TOO_LOW' ? 'deposit at least 10 USD' : rule.change,
    };
    return failPayout(mock, next, refusal.code, refusal.reason, explanation);
  }
  emitTxn(state, next, 'transaction.payout_initiated', {
    status: next.status,
    amountInr: next.payout?.amountInr ?? amountInr,
    rail: 'imps',
  });
  // Attribution is computed just after submission (2.4 rule 4), so never in the create answer.
  if (next.kind === 'standard') {
    if (next.payout) next.payout.attributionStatus = 'pending';
    later(state, next, TXN_TIMERS.attribute, ATTRIBUTION_DELAY_MS);
  }
  const settle = later(state, next, TXN_TIMERS.payoutSettle, PAYOUT_SETTLE_MS);
  if (next.payout) next.payout.timerId = settle;
  return next;
}

/**
 * Attributes a standard payout to the pool's tranches, FIFO (spec 2.4), once; a payout the pool cannot
 * cover goes unattributed (rule 5: attribution never blocks the payment).
 */
export function attribute(mock: ServiceInternals, txn: TransactionRecord): void {
  const { state } = mock;
  const { payout } = txn;
  if (txn.kind !== 'standard' || !payout || payout.attribution) return;
  const tranches = state.transactions.tranchesByAccount[txn.accountId] ?? [];
  const result = payout.status === 'failed' ? undefined : allocate(tranches, payout.amountInr);
  // Known now for good: the read says so, and a client waiting for the attribution stops at once.
  const from = payout.attributionStatus ?? 'pending';
  payout.attributionStatus = result?.attribution ? 'attributed' : 'none';
  // A payout attributed as none is looked at again on completion: only a change is a transition.
  if (from !== payout.attributionStatus) {
    const covered = result?.attribution || payout.status === 'failed';
    const explanation = covered ? undefined : unattributed(payout.amountInr);
    recordTxnPart(mock, txn, 'attribution', {
      from,
      to: payout.attributionStatus,
      trigger: TXN_TIMERS.attribute,
      explanation,
    });
  }
  if (!result?.attribution) return;
  payout.attribution = result.attribution;
  state.transactions.tranchesByAccount[txn.accountId] = result.remainingTranches;
}

/** The bank accepted the transfer (spec 6.2 `payout_completed`, with the attribution when there is one). */
export function completePayout(mock: ServiceInternals, txn: TransactionRecord): TransactionRecord {
  const { state } = mock;
  attribute(mock, txn);
  if (txn.payout?.timerId) cancelTimer(state, txn.payout.timerId);
  const next = move(mock, txn, { type: 'payout.complete', utr: `SBX${randomDigits(state, 12)}` });
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
  if (next.kind === 'prefunded') {
    later(state, next, TXN_TIMERS.awaitFunds, AWAIT_FUNDS_MS);
    // "24 hours to send funds after payout" (spec 3.1, 8): the window starts now the INR is sent.
    const deadline = Date.parse(payout.completedAt ?? '') + parseDuration(SANDBOX_TRANSACTIONS.fundingWindow);
    next.expiresAt = new Date(deadline).toISOString();
    next.timerIds.push(
      schedule(state, TXN_TIMERS.fundingExpire, { at: deadline }, { transactionId: next.id }),
    );
  }
  return next;
}

/**
 * The payout failed (spec 6.2 `payout_failed`, 7.3 identifiers). A failed payout sent no INR: a prefunded one's
 * amount leaves `outstandingUsd`, and a pool-funded one gives its tranches back. `explanation` is the rule or sandbox value that failed it, for the journal.
 */
export function failPayout(
  mock: ServiceInternals,
  txn: TransactionRecord,
  code: string,
  reason: string,
  explanation?: Explanation,
): TransactionRecord {
  const { state } = mock;
  if (txn.payout?.timerId) cancelTimer(state, txn.payout.timerId);
  const next = move(mock, txn, { type: 'payout.fail', code, reason }, explanation);
  if (next.payout) next.payout.timerId = undefined;
  unattribute(mock, next);
  releaseHeldCredit(state, next, next.amount);
  emitTxn(state, next, 'transaction.payout_failed', {
    status: next.status,
    amountInr: next.payout?.amountInr ?? next.quote.netInr,
    code,
    reason,
  });
  return next;
}

/** Settles a payout at its scheduled time: fails it for the sandbox failure amount, completes it otherwise. */
export function settlePayout(mock: ServiceInternals, txn: TransactionRecord): void {
  if (new Decimal(txn.amount).eq(SANDBOX_TRANSACTIONS.payoutFailureAmount)) {
    failPayout(
      mock,
      txn,
      'PAYOUT_FAILED',
      'The payout provider rejected the transfer (sandbox failure amount)',
      SANDBOX_EXPLANATIONS.payoutFailureAmount,
    );
    return;
  }
  completePayout(mock, txn);
}

/**
 * A failed payout sent no INR, so it consumed no tranche: its allocations go back to the pool and the read shows
 * no attribution (`attributionStatus: none`).
 */
function unattribute(mock: ServiceInternals, txn: TransactionRecord): void {
  const { state } = mock;
  const { payout } = txn;
  if (!payout?.attribution) return;
  const tranches = state.transactions.tranchesByAccount[txn.accountId] ?? [];
  state.transactions.tranchesByAccount[txn.accountId] = release(tranches, payout.attribution.allocations);
  payout.attribution = undefined;
  payout.attributionStatus = 'none';
  recordTxnPart(mock, txn, 'attribution', { from: 'attributed', to: 'none', trigger: 'payout.fail' });
}

/** Why a payout went unattributed: the pool's settled tranches could not cover it (spec 2.4 rule 5). */
function unattributed(amountInr: string): Explanation {
  return {
    rule: 'ATTRIBUTION_NONE',
    because: `the pool's settled tranches cannot cover the payout of INR ${amountInr}; the payment goes ahead unattributed`,
    section: '2.4',
    change: 'settle more tranches first: helpers.tranches.add([{ rate, inrAmount }])',
  };
}
