/**
 * FIFO rate attribution (spec 2.4): a pool-funded payout consumes the oldest unspent settled tranche first
 * and spills into the next. Rounding (docs/assumptions.md): each allocation's `usdtAmount` is its INR over
 * its deal rate, half-up to 6 places; `usdtEquivalent` is the exact sum of those strings; `rate` is the deal
 * rate for one tranche and total INR over `usdtEquivalent`, half-up to 4 places, across several. INR to the
 * paisa. So `usdtEquivalent === sum(allocations[].usdtAmount)` holds exactly on the strings.
 */
import { Decimal } from 'decimal.js';
import type { AllocationRecord, AttributionRecord, TrancheRecord } from '../state/transactions.js';

/**
 * What `allocate` returns: the attribution (absent when the pool cannot cover the payout, which then goes
 * unattributed, spec 2.4 rule 5) and the tranches as they are afterwards.
 */
export interface AllocationResult extends Partial<AttributionRecord> {
  attribution?: AttributionRecord;
  remainingTranches: TrancheRecord[];
}

/** Allocates `payoutInr` over `tranches` (oldest first) without changing them. */
export function allocate(tranches: readonly TrancheRecord[], payoutInr: string): AllocationResult {
  const payout = new Decimal(payoutInr);
  const available = tranches.reduce((total, t) => total.plus(t.remainingInr), new Decimal(0));
  if (payout.lte(0) || available.lt(payout)) return { remainingTranches: structuredClone([...tranches]) };
  let left = payout;
  const allocations: AllocationRecord[] = [];
  const remainingTranches: TrancheRecord[] = [];
  for (const tranche of tranches) {
    const remaining = new Decimal(tranche.remainingInr);
    if (left.isZero() || remaining.isZero()) {
      remainingTranches.push({ ...tranche });
      continue;
    }
    const take = Decimal.min(remaining, left);
    left = left.minus(take);
    allocations.push({
      dealId: tranche.dealId,
      dealNumber: tranche.dealNumber,
      rate: tranche.rate,
      inrAmount: take.toFixed(2),
      usdtAmount: take.dividedBy(tranche.rate).toDecimalPlaces(6, Decimal.ROUND_HALF_UP).toFixed(6),
    });
    remainingTranches.push({ ...tranche, remainingInr: remaining.minus(take).toFixed(2) });
  }
  const usdt = allocations.reduce((total, a) => total.plus(a.usdtAmount), new Decimal(0));
  const [only] = allocations;
  const rate =
    allocations.length === 1 && only
      ? only.rate
      : payout.dividedBy(usdt).toDecimalPlaces(4, Decimal.ROUND_HALF_UP).toFixed(4);
  const attribution: AttributionRecord = { rate, usdtEquivalent: usdt.toFixed(6), allocations };
  return { ...attribution, attribution, remainingTranches };
}

/**
 * Gives a failed payout's allocations back to the tranches they came from, so the next payout consumes them
 * oldest first again (no INR went out). A tranche no longer in the pool (cleared or replaced by a helper) is
 * not brought back.
 */
export function release(
  tranches: readonly TrancheRecord[],
  allocations: readonly AllocationRecord[],
): TrancheRecord[] {
  return tranches.map((tranche) => {
    const given = allocations
      .filter((a) => a.dealId === tranche.dealId)
      .reduce((total, a) => total.plus(a.inrAmount), new Decimal(0));
    return given.isZero()
      ? { ...tranche }
      : { ...tranche, remainingInr: given.plus(tranche.remainingInr).toFixed(2) };
  });
}
