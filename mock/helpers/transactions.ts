/**
 * Money-flow test helpers (Stripe test-helper style): simulate a deposit (full, short, over) whose
 * confirmations then arrive on the clock, settle a payout now, and set the sandbox exchange rate. A move
 * the transaction's status does not allow is refused with `MockTransitionError`.
 */
import { Decimal } from 'decimal.js';
import type { Transaction } from '../../src/schemas/transactions.js';
import { MockHelperError, MockTransitionError } from '../engine/errors.js';
import type { ServiceInternals } from '../engine/internals.js';
import { transactionAt } from '../machines/confirmations.js';
import { confirmationMs } from '../machines/networks.js';
import { depositSeen } from '../operations/deposits.js';
import { completePayout, failPayout } from '../operations/payouts.js';
import { findTransaction, setExchangeRate, transactionData } from '../operations/transactions.js';
import type { TransactionRecord } from '../state/transactions.js';

/** A deposit to simulate: the expected amount by default, or `amount` (short or over). */
export interface SimulatedDeposit {
  transactionId: string;
  amount?: string;
  txHash?: string;
}

export function transactionHelpers(mock: ServiceInternals) {
  const find = (transactionId: string): TransactionRecord => {
    const txn = findTransaction(mock.state, transactionId);
    if (!txn) throw new MockHelperError(`No transaction ${transactionId} in this mock`);
    return txn;
  };
  const processing = (txn: TransactionRecord, action: string): void => {
    if (txn.status !== 'payout_processing')
      throw new MockTransitionError({
        subject: `transaction ${txn.id}`,
        action,
        state: txn.status,
        allowed: ['payout_processing'],
        hint: 'Simulate the deposit and advance the clock until the payout starts.',
        section: '3.1',
      });
  };
  return {
    /**
     * The deposit arrives now; its confirmations follow one block at a time on the clock. Returns the
     * virtual ms until the last confirmation.
     * @example
     * ```ts
     * import { setupServer } from 'msw/node';
     * import { createMockService } from 'inr-payouts/mock';
     * import { mswHandlers } from 'inr-payouts/mock/msw';
     *
     * const mock = createMockService();
     * const server = setupServer(...mswHandlers(mock));
     * server.listen();
     * const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210', name: 'Asha Rao' });
     * const created = await fetch(`${mock.baseUrl}/v2/transactions`, {
     *   method: 'POST',
     *   headers: { Authorization: `Bearer ${mock.sandboxKey}`, 'Content-Type': 'application/json' },
     *   body: JSON.stringify({ userId, amount: '100', asset: 'USDT', network: 'polygon' }),
     * });
     * const { data } = await created.json();
     * const ms = mock.helpers.transactions.simulateDeposit({ transactionId: data.transactionId, amount: '100' });
     * await mock.clock.advance(ms); // 128 confirmations of 2 s: confirmed, the payout has started
     * await mock.clock.advance('10s'); // the bank accepts it
     * if (mock.helpers.transactions.get(data.transactionId).status !== 'completed') throw new Error('completed');
     * server.close();
     * ```
     */
    simulateDeposit({ transactionId, amount, txHash }: SimulatedDeposit): number {
      const txn = find(transactionId);
      const allowed = txn.kind === 'standard' ? ['created'] : ['awaiting_funds'];
      if (!allowed.includes(txn.status) || txn.deposit.status !== undefined)
        throw new MockTransitionError({
          subject: `${txn.kind} transaction ${txn.id}`,
          action: 'simulate a deposit for',
          state: txn.status,
          allowed,
          section: '3.1',
        });
      const value = amount ?? txn.amount;
      if (!new Decimal(value).gt(0))
        throw new MockHelperError(`A deposit amount must be positive; got ${value}`);
      depositSeen(mock, txn, new Decimal(value).toFixed(), txHash);
      return confirmationMs(txn.network);
    },
    /**
     * Virtual ms from a deposit being seen to its last confirmation on `network`.
     * @example
     * ```ts
     * console.log(mock.helpers.transactions.confirmationMs('ethereum')); // 144000
     * ```
     */
    confirmationMs: (network: TransactionRecord['network']): number => confirmationMs(network),
    /**
     * The bank accepts the payout now (instead of after 10 s).
     * @example
     * ```ts
     * const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
     * const { transactionId } = await client.transactions.create({ userId, amount: '100', asset: 'USDC', network: 'arbitrum' });
     * await mock.clock.advance(mock.helpers.transactions.simulateDeposit({ transactionId })); // payout_processing
     * mock.helpers.transactions.completePayout({ transactionId });
     * ```
     */
    completePayout({ transactionId }: { transactionId: string }): Transaction {
      const txn = find(transactionId);
      processing(txn, 'complete the payout of');
      return structuredClone(transactionData(completePayout(mock, txn)));
    },
    /**
     * The payout fails now, with a payout identifier of spec 7.3 (default `PAYOUT_FAILED`).
     * @example
     * ```ts
     * const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
     * const { transactionId } = await client.transactions.create({ userId, amount: '100', asset: 'USDC', network: 'arbitrum' });
     * await mock.clock.advance(mock.helpers.transactions.simulateDeposit({ transactionId })); // payout_processing
     * mock.helpers.transactions.failPayout({ transactionId, code: 'BANK_ACCOUNT_INVALID' });
     * ```
     */
    failPayout({
      transactionId,
      code = 'PAYOUT_FAILED',
      reason,
    }: {
      transactionId: string;
      code?: string;
      reason?: string;
    }): Transaction {
      const txn = find(transactionId);
      processing(txn, 'fail the payout of');
      const why = reason ?? 'The payout provider rejected the transfer';
      const explanation = {
        rule: 'helper.transactions.failPayout',
        because: `helpers.transactions.failPayout failed the payout with ${code}`,
        section: '7.3',
        change: 'let the payout settle on the clock, or helpers.transactions.completePayout',
      };
      return structuredClone(transactionData(failPayout(mock, txn, code, why, explanation)));
    },
    /**
     * Sets the exchange rate (INR per USD, decimal string) that new quotes use.
     * @example
     * ```ts
     * mock.helpers.transactions.setExchangeRate('84.10');
     * ```
     */
    setExchangeRate(rate: string): void {
      if (!new Decimal(rate).gt(0))
        throw new MockHelperError(`An exchange rate must be positive; got ${rate}`);
      setExchangeRate(mock.state, rate);
    },
    /**
     * The transaction as a read now sees it (a copy), with the confirmations mined so far.
     * @example
     * ```ts
     * const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
     * const { transactionId } = await client.transactions.create({ userId, amount: '100', asset: 'USDC', network: 'base' });
     * const txn = mock.helpers.transactions.get(transactionId);
     * ```
     */
    get: (transactionId: string): TransactionRecord =>
      structuredClone(transactionAt(find(transactionId), mock.state.clock.now)),
  };
}
