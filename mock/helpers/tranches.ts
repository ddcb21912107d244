/**
 * Settled deal-rate tranches of an account's INR escrow pool (spec 2.4): the FIFO attribution of standard
 * payouts consumes them, oldest first.
 */
import { Decimal } from 'decimal.js';
import { MockHelperError } from '../core/errors.js';
import { nextId } from '../core/ids.js';
import type { MockRuntime } from '../core/runtime.js';
import { nowIso } from '../core/timers.js';
import type { TrancheRecord } from '../state/transactions.js';

/**
 * One tranche to settle: its deal rate (INR per USDT) and INR amount, decimal strings.
 * @example
 * ```ts
 * import { NewTranche } from 'inr-payouts/mock';
 * const tranche: NewTranche = { rate: '83.10', inrAmount: '100000' };
 * ```
 */
export interface NewTranche {
  rate: string;
  inrAmount: string;
  dealId?: string;
  dealNumber?: string;
}

/**
 * Tranche helpers.
 * @example
 * const tranches = trancheHelpers(runtime);
 */
export function trancheHelpers(rt: MockRuntime) {
  const account = (accountId?: string): string => {
    const id = accountId ?? rt.state.accounts.defaultId;
    if (!rt.state.accounts.byId[id]) throw new MockHelperError(`No account ${id} in this mock`);
    return id;
  };
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
     * ```
     */
    add(tranches: NewTranche[], { accountId }: { accountId?: string } = {}): TrancheRecord[] {
      const id = account(accountId);
      const state = rt.state;
      const added = tranches.map((t): TrancheRecord => {
        const rate = new Decimal(t.rate);
        const inr = new Decimal(t.inrAmount);
        if (!rate.gt(0) || !inr.gt(0))
          throw new MockHelperError(
            `A tranche needs a positive rate and inrAmount; got ${t.rate} and ${t.inrAmount}`,
          );
        state.transactions.dealSeq += 1;
        return {
          dealId: t.dealId ?? nextId(state, 'deal'),
          dealNumber: t.dealNumber ?? `D-${String(state.transactions.dealSeq).padStart(4, '0')}`,
          rate: t.rate,
          inrAmount: inr.toFixed(2),
          remainingInr: inr.toFixed(2),
          settledAt: nowIso(state),
        };
      });
      state.transactions.tranchesByAccount[id] = [
        ...(state.transactions.tranchesByAccount[id] ?? []),
        ...added,
      ];
      return structuredClone(added);
    },
    /**
     * The pool's tranches with what is left of each, oldest first.
     * @example
     * ```ts
     * mock.helpers.tranches.add([{ rate: '83.10', inrAmount: '5000.00' }]);
     * const left = mock.helpers.tranches.list()[0]?.remainingInr; // '5000.00'
     * ```
     */
    list: ({ accountId }: { accountId?: string } = {}): TrancheRecord[] =>
      structuredClone(rt.state.transactions.tranchesByAccount[account(accountId)] ?? []),
  };
}
