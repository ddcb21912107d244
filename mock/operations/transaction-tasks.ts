/**
 * The money flow's timer tasks: each finds its transaction and, when the move still fits (a helper may have
 * moved it first), applies it through `operations/transactions.ts`. The quote's expiry is defined with the create
 * that schedules it (`operations/create-transaction.ts`).
 */
import { defineTask } from '../engine/tasks.js';
import { blocksMinedBy } from '../machines/confirmations.js';
import { canApply } from '../machines/transaction.js';
import { quoteExpire } from './create-transaction.js';
import { depositBlocks, settleSweep } from './deposits.js';
import { attribute, settlePayout } from './payouts.js';
import { findTransaction, move, TXN_TIMERS, type TxnTimerPayload } from './transactions.js';

const block = defineTask<TxnTimerPayload>(TXN_TIMERS.block, ({ transactionId }, { state, now, mock }) => {
  const txn = findTransaction(state, transactionId);
  if (txn && canApply(txn, { type: 'deposit.block', confirmations: blocksMinedBy(txn, now) }))
    depositBlocks(mock, txn);
});

const attributeTask = defineTask<TxnTimerPayload>(
  TXN_TIMERS.attribute,
  ({ transactionId }, { state, mock }) => {
    const txn = findTransaction(state, transactionId);
    if (txn) attribute(mock, txn);
  },
);

const payoutSettle = defineTask<TxnTimerPayload>(
  TXN_TIMERS.payoutSettle,
  ({ transactionId }, { state, mock }) => {
    const txn = findTransaction(state, transactionId);
    if (txn && canApply(txn, { type: 'payout.complete', utr: '' })) settlePayout(mock, txn);
  },
);

const awaitFunds = defineTask<TxnTimerPayload>(
  TXN_TIMERS.awaitFunds,
  ({ transactionId }, { state, mock }) => {
    const txn = findTransaction(state, transactionId);
    if (txn && canApply(txn, { type: 'funds.await' })) move(mock, txn, { type: 'funds.await' });
  },
);

const fundingExpire = defineTask<TxnTimerPayload>(
  TXN_TIMERS.fundingExpire,
  ({ transactionId }, { state, mock }) => {
    const txn = findTransaction(state, transactionId);
    // A deposit seen on-chain in time was sent in time: its confirmation completes the transaction and
    // restores the credit, even after the deadline (docs/assumptions.md).
    if (!txn || txn.deposit.status !== undefined) return;
    // The amount stays in outstandingUsd: the INR went out and only received funds restore credit (2.5).
    if (canApply(txn, { type: 'funding.expire' })) move(mock, txn, { type: 'funding.expire' });
  },
);

const sweep = defineTask<TxnTimerPayload>(TXN_TIMERS.sweep, ({ transactionId }, { state, mock }) => {
  const txn = findTransaction(state, transactionId);
  if (txn) settleSweep(mock, txn);
});

/** Every money-flow task, for the transactions module. */
export const transactionTasks = [
  quoteExpire,
  block,
  attributeTask,
  payoutSettle,
  awaitFunds,
  fundingExpire,
  sweep,
];
