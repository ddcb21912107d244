/**
 * The money flow's timer tasks: each finds its transaction and, when the move still fits (a helper may have
 * moved it first), applies it through `operations/transactions.ts`. The quote's expiry is defined with the create
 * that schedules it (`operations/create-transaction.ts`).
 */
import { blocksMinedBy } from '../machines/confirmations.js';
import { canApply } from '../machines/transaction.js';
import { quoteExpire } from './create-transaction.js';
import { depositBlocks, settleSweep } from './deposits.js';
import { attribute, settlePayout } from './payouts.js';
import { moveIfAllowed, TXN_TIMERS, txnTask } from './transactions.js';

const block = txnTask(TXN_TIMERS.block, (mock, txn, now) => {
  if (canApply(txn, { type: 'deposit.block', confirmations: blocksMinedBy(txn, now) }))
    depositBlocks(mock, txn);
});

const payoutSettle = txnTask(TXN_TIMERS.payoutSettle, (mock, txn) => {
  if (canApply(txn, { type: 'payout.complete', utr: '' })) settlePayout(mock, txn);
});

const fundingExpire = txnTask(TXN_TIMERS.fundingExpire, (mock, txn) => {
  // A deposit seen on-chain in time was sent in time: its confirmation completes the transaction and
  // restores the credit, even after the deadline (docs/assumptions.md).
  // The amount stays in outstandingUsd: the INR went out and only received funds restore credit (2.5).
  if (txn.deposit.status === undefined) moveIfAllowed(mock, txn, { type: 'funding.expire' });
});

/** Every money-flow task, for the transactions module. */
export const transactionTasks = [
  quoteExpire,
  block,
  txnTask(TXN_TIMERS.attribute, attribute),
  payoutSettle,
  txnTask(TXN_TIMERS.awaitFunds, (mock, txn) => moveIfAllowed(mock, txn, { type: 'funds.await' })),
  fundingExpire,
  txnTask(TXN_TIMERS.sweep, settleSweep),
];
