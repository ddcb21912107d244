/**
 * The deposit leg (spec 3.1, 6.2): a deposit seen on chain, its confirmations block by block, and the sweep
 * of the confirmed deposit into the settlement pool.
 */
import { Decimal } from 'decimal.js';
import { randomHex } from '../engine/ids.js';
import type { ServiceInternals } from '../engine/internals.js';
import { cancelTimer } from '../engine/timers.js';
import { blocksMinedBy, lastBlockAt } from '../machines/confirmations.js';
import { NETWORK_CONFIRMATIONS } from '../machines/networks.js';
import { SANDBOX_EXPLANATIONS } from '../sandbox-explanations.js';
import { SANDBOX_TRANSACTIONS } from '../sandbox-values.js';
import type { TransactionRecord } from '../state/transactions.js';
import { startPayout } from './payouts.js';
import {
  depositData,
  emitTxn,
  later,
  move,
  releaseHeldCredit,
  SWEEP_MS,
  TXN_TIMERS,
} from './transactions.js';
import { recordTxnPart } from './transitions.js';

/** A deposit is seen on the chain (spec 3.1 `deposit_pending`): its block timer runs at the first block. */
export function depositSeen(
  mock: ServiceInternals,
  txn: TransactionRecord,
  amount: string,
  txHash?: string,
): TransactionRecord {
  const { state } = mock;
  const hash = txHash ?? (txn.network === 'solana' ? randomHex(state, 32) : `0x${randomHex(state, 32)}`);
  // A paid quote no longer expires; the prefunded funding window stays armed until the deposit is confirmed.
  if (txn.kind === 'standard') {
    for (const timerId of txn.timerIds) cancelTimer(state, timerId);
    txn.timerIds = [];
  }
  const next = move(mock, txn, { type: 'deposit.seen', amount, txHash: hash });
  later(state, next, TXN_TIMERS.block, NETWORK_CONFIRMATIONS[next.network].blockMs);
  return next;
}

/**
 * The chain has mined blocks over the deposit (spec 6.2 `deposit_detected` on the first, `deposit_confirmed`
 * on the last). Only those two run this, on the block timer: the blocks between them are counted on a read
 * (machines/confirmations.ts). A confirmed standard deposit starts the payout, a confirmed prefunded deposit
 * restores the credit.
 */
export function depositBlocks(mock: ServiceInternals, txn: TransactionRecord): void {
  const { state } = mock;
  const confirmations = blocksMinedBy(txn, state.clock.now);
  const next = move(mock, txn, { type: 'deposit.block', confirmations });
  // The first block detects the deposit, even when it is also the last (arbitrum needs one).
  if (txn.deposit.status === 'pending')
    emitTxn(state, next, 'transaction.deposit_detected', depositData(next));
  if (next.deposit.status !== 'confirmed') {
    const at = lastBlockAt(next);
    if (at !== undefined) later(state, next, TXN_TIMERS.block, { at });
    return;
  }
  emitTxn(state, next, 'transaction.deposit_confirmed', depositData(next));
  // The sweep runs beside the payout and never holds it up; its own timer is not cancelled by completion.
  next.sweep = { status: 'pending' };
  later(state, next, TXN_TIMERS.sweep, SWEEP_MS);
  if (next.kind === 'standard') {
    startPayout(mock, next);
    return;
  }
  // Prefunded: confirmed receipt subtracts the amount from outstandingUsd (spec 2.5); a shortfall stays owed.
  releaseHeldCredit(state, next, Decimal.min(next.deposit.receivedAmount ?? '0', next.amount).toFixed());
}

/**
 * The confirmed deposit's sweep into the settlement pool lands (or, for the sandbox sweep-failure amount,
 * fails); the transaction's status is not affected.
 */
export function settleSweep(mock: ServiceInternals, txn: TransactionRecord): void {
  const { state } = mock;
  if (txn.sweep?.status !== 'pending') return;
  const amount = txn.deposit.receivedAmount ?? txn.amount;
  const base = { network: txn.network, asset: txn.asset, amount };
  const at = new Date(state.clock.now).toISOString();
  if (new Decimal(amount).eq(SANDBOX_TRANSACTIONS.sweepFailureAmount)) {
    const reason = 'The sweep transaction reverted on chain (sandbox sweep-failure amount)';
    txn.sweep = { status: 'failed', reason, at };
    const explanation = SANDBOX_EXPLANATIONS.sweepFailureAmount;
    recordTxnPart(mock, txn, 'sweep', {
      from: 'pending',
      to: 'failed',
      trigger: TXN_TIMERS.sweep,
      explanation,
    });
    emitTxn(state, txn, 'transaction.sweep_failed', { ...base, reason });
    return;
  }
  const sweepTxHash = txn.network === 'solana' ? randomHex(state, 32) : `0x${randomHex(state, 32)}`;
  txn.sweep = { status: 'confirmed', txHash: sweepTxHash, at };
  recordTxnPart(mock, txn, 'sweep', { from: 'pending', to: 'confirmed', trigger: TXN_TIMERS.sweep });
  emitTxn(state, txn, 'transaction.sweep_confirmed', { ...base, sweepTxHash });
}
