/**
 * Settled deal-rate tranches of an account's INR escrow pool (spec 2.4): the FIFO attribution of standard
 * payouts consumes them, oldest first. Every account starts with `SANDBOX_TRANSACTIONS.defaultTranches`.
 */
import { Decimal } from 'decimal.js';
import { MockHelperError } from '../engine/errors.js';
import type { ServiceInternals } from '../engine/internals.js';
import { addTranches, type NewTranche, replaceTranches } from '../operations/tranches.js';
import type { TrancheRecord } from '../state/transactions.js';
import { accountOf } from './lookup.js';

export function trancheHelpers(mock: ServiceInternals) {
  const account = (accountId?: string): string => accountOf(mock, accountId).id;
  // Checks every tranche before the operation numbers any, so bad input changes nothing. The contract has
  // checked that they are an array of decimal strings; a zero is left to refuse here.
  const checked = (tranches: NewTranche[]): NewTranche[] =>
    tranches.map((t) => {
      const inr = new Decimal(t.inrAmount);
      if (!new Decimal(t.rate).gt(0) || !inr.gt(0))
        throw new MockHelperError(
          `A tranche needs a positive rate and inrAmount (decimal strings); got ${t.rate} and ${t.inrAmount}`,
        );
      return { dealId: t.dealId, dealNumber: t.dealNumber, rate: t.rate, inrAmount: inr.toFixed(2) };
    });
  return {
    /**
     * Settles tranches into the pool, after the ones already there (so they are consumed later).
     * @example
     * ```ts
     * import { createMockService } from 'inr-payouts/mock';
     *
     * const mock = createMockService();
     * const [first] = mock.helpers.tranches.add([{ rate: '83.10', inrAmount: '5000' }, { rate: '83.40', inrAmount: '5000' }]);
     * if (first?.dealNumber !== 'D-0001') throw new Error('deal numbers count up');
     * // After the sandbox's default tranches SBX-0001 and SBX-0002.
     * if (mock.helpers.tranches.list()[2]?.dealNumber !== 'D-0001') throw new Error('added last');
     * ```
     */
    add(tranches: NewTranche[], { accountId }: { accountId?: string } = {}): TrancheRecord[] {
      const id = account(accountId);
      return structuredClone(addTranches(mock.state, id, checked(tranches)));
    },
    /**
     * Makes the pool exactly `tranches` (the default ones and any left are dropped); `[]` empties it, so
     * standard payouts go unattributed.
     * @example
     * ```ts
     * import { createMockService } from 'inr-payouts/mock';
     *
     * const mock = createMockService();
     * mock.helpers.tranches.replace([{ rate: '84.00', inrAmount: '10000' }]);
     * if (mock.helpers.tranches.list().length !== 1) throw new Error('only the new tranche is left');
     * ```
     */
    replace(tranches: NewTranche[], { accountId }: { accountId?: string } = {}): TrancheRecord[] {
      const id = account(accountId);
      return structuredClone(replaceTranches(mock.state, id, checked(tranches)));
    },
    /**
     * Empties the pool: standard payouts then go unattributed (spec 2.4 rule 3).
     * @example
     * ```ts
     * mock.helpers.tranches.clear();
     * ```
     */
    clear({ accountId }: { accountId?: string } = {}): void {
      replaceTranches(mock.state, account(accountId), []);
    },
    /**
     * The pool's tranches with what is left of each, oldest first.
     * @example
     * ```ts
     * mock.helpers.tranches.replace([{ rate: '83.10', inrAmount: '5000.00' }]);
     * const left = mock.helpers.tranches.list()[0]?.remainingInr; // '5000.00'
     * ```
     */
    list: ({ accountId }: { accountId?: string } = {}): TrancheRecord[] =>
      structuredClone(mock.state.transactions.tranchesByAccount[account(accountId)] ?? []),
  };
}
