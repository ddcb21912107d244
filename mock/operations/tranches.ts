/**
 * Settling deal-rate tranches into an account's INR escrow pool (spec 2.4), which the FIFO attribution of standard
 * payouts consumes oldest first. New tranches are numbered `D-0001` up unless they bring their own deal.
 */
import { nextId } from '../engine/ids.js';
import { nowIso } from '../engine/timers.js';
import type { MockState } from '../state/mock-state.js';
import type { TrancheRecord } from '../state/transactions.js';

/** One tranche to settle: its deal rate (INR per USDT) and INR amount, decimal strings. */
export interface NewTranche {
  rate: string;
  inrAmount: string;
  dealId?: string;
  dealNumber?: string;
}

/** Numbers checked tranches (positive decimal strings, the INR to 2 places) as settled now. */
function settled(state: MockState, tranches: NewTranche[]): TrancheRecord[] {
  return tranches.map((t): TrancheRecord => {
    state.transactions.dealSeq += 1;
    return {
      dealId: t.dealId ?? nextId(state, 'deal'),
      dealNumber: t.dealNumber ?? `D-${String(state.transactions.dealSeq).padStart(4, '0')}`,
      rate: t.rate,
      inrAmount: t.inrAmount,
      remainingInr: t.inrAmount,
      settledAt: nowIso(state),
    };
  });
}

/** Settles checked tranches after the ones already in the account's pool (so they are consumed later). */
export function addTranches(state: MockState, accountId: string, tranches: NewTranche[]): TrancheRecord[] {
  const added = settled(state, tranches);
  state.transactions.tranchesByAccount[accountId] = [
    ...(state.transactions.tranchesByAccount[accountId] ?? []),
    ...added,
  ];
  return added;
}

/**
 * Makes the account's pool exactly the checked tranches; `[]` empties it, so standard payouts go unattributed
 * (spec 2.4 rule 3).
 */
export function replaceTranches(
  state: MockState,
  accountId: string,
  tranches: NewTranche[],
): TrancheRecord[] {
  const pool = settled(state, tranches);
  state.transactions.tranchesByAccount[accountId] = pool;
  return pool;
}
