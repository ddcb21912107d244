/**
 * Properties of the FIFO rate attribution (spec 2.4) for arbitrary tranche pools and payouts, checked with
 * exact decimal arithmetic against the rounding rule of docs/assumptions.md.
 */
import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocate } from '../../mock/machines/attribution.js';
import { checkAttribution } from '../../src/money.js';
import { inr, pool, sum } from './arbitraries.js';

const RUNS = 500;
/** A payout the pool can cover: a fraction of what is left in it, to the paisa, at least 0.01. */
const coveredPayout = pool.chain((tranches) => {
  const left = sum(tranches.map((t) => t.remainingInr));
  const paise = left.times(100).toNumber();
  return fc
    .integer({ min: 0, max: paise })
    .map((p) => ({ tranches, payoutInr: new Decimal(p).dividedBy(100).toFixed(2) }));
});

describe('2.4: FIFO rate attribution, for any pool and payout', () => {
  it('2.4 rules 2, 4: the allocations add up to the payout INR exactly and usdtEquivalent is the exact sum of the usdtAmount strings', () => {
    fc.assert(
      fc.property(coveredPayout, ({ tranches, payoutInr }) => {
        const result = allocate(tranches, payoutInr);
        if (new Decimal(payoutInr).isZero()) {
          expect(result.attribution).toBeUndefined();
          return;
        }
        const attribution = result.attribution;
        if (!attribution) throw new Error(`a covered payout of ${payoutInr} went unattributed`);
        expect(sum(attribution.allocations.map((a) => a.inrAmount)).eq(payoutInr)).toBe(true);
        expect(attribution.usdtEquivalent).toBe(
          sum(attribution.allocations.map((a) => a.usdtAmount)).toFixed(6),
        );
        // The client's own check (inr-payouts/money) agrees.
        const allocations = attribution.allocations.map((a) => ({ ...a }));
        expect(checkAttribution({ amountInr: payoutInr, ...attribution, allocations })).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });

  it('2.4 rounding: each usdtAmount is its INR over its deal rate half-up to 6 places; the rate is the deal rate for one tranche, else total INR over usdtEquivalent half-up to 4 places', () => {
    fc.assert(
      fc.property(coveredPayout, ({ tranches, payoutInr }) => {
        const attribution = allocate(tranches, payoutInr).attribution;
        if (!attribution) return;
        for (const a of attribution.allocations) {
          expect(a.usdtAmount).toBe(
            new Decimal(a.inrAmount).dividedBy(a.rate).toDecimalPlaces(6, Decimal.ROUND_HALF_UP).toFixed(6),
          );
        }
        const [only, ...more] = attribution.allocations;
        const expected =
          only && more.length === 0
            ? only.rate
            : new Decimal(payoutInr)
                .dividedBy(attribution.usdtEquivalent)
                .toDecimalPlaces(4, Decimal.ROUND_HALF_UP)
                .toFixed(4);
        expect(attribution.rate).toBe(expected);
      }),
      { numRuns: RUNS },
    );
  });

  it('2.4 rule 2: tranches are consumed oldest first, each emptied before the next is touched, none overdrawn', () => {
    fc.assert(
      fc.property(coveredPayout, ({ tranches, payoutInr }) => {
        const { attribution, remainingTranches } = allocate(tranches, payoutInr);
        if (!attribution) return;
        const used = tranches.filter((t) => !new Decimal(t.remainingInr).isZero());
        const dealIds = attribution.allocations.map((a) => a.dealId);
        // A prefix of the non-empty tranches, in pool order.
        expect(dealIds).toEqual(used.slice(0, dealIds.length).map((t) => t.dealId));
        attribution.allocations.forEach((a, i) => {
          const source = used[i];
          if (!source) throw new Error(`allocation ${a.dealId} has no tranche`);
          expect(a.rate).toBe(source.rate);
          expect(new Decimal(a.inrAmount).gt(0)).toBe(true);
          expect(new Decimal(a.inrAmount).lte(source.remainingInr)).toBe(true);
          // Spill-over: every tranche but the last one used is emptied.
          if (i < attribution.allocations.length - 1) expect(a.inrAmount).toBe(source.remainingInr);
        });
        expect(remainingTranches.map((t) => t.dealId)).toEqual(tranches.map((t) => t.dealId));
        remainingTranches.forEach((after, i) => {
          const before = tranches[i];
          if (!before) throw new Error('a tranche disappeared');
          const taken = attribution.allocations.find((a) => a.dealId === after.dealId)?.inrAmount ?? '0';
          expect(new Decimal(after.remainingInr).gte(0)).toBe(true);
          expect(new Decimal(before.remainingInr).minus(taken).eq(after.remainingInr)).toBe(true);
          expect(after.inrAmount).toBe(before.inrAmount);
        });
        expect(
          sum(tranches.map((t) => t.remainingInr))
            .minus(sum(remainingTranches.map((t) => t.remainingInr)))
            .eq(payoutInr),
        ).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('2.4 rule 5: a payout above what the pool holds goes unattributed and leaves every tranche as it was', () => {
    fc.assert(
      fc.property(pool, inr, (tranches, extra) => {
        const payoutInr = sum(tranches.map((t) => t.remainingInr))
          .plus(extra)
          .toFixed(2);
        const { attribution, remainingTranches } = allocate(tranches, payoutInr);
        expect(attribution).toBeUndefined();
        expect(remainingTranches).toEqual(tranches);
      }),
      { numRuns: RUNS },
    );
  });

  it('2.4: consecutive payouts drain the pool in order until it cannot cover the next one', () => {
    fc.assert(
      fc.property(pool, fc.array(inr, { minLength: 1, maxLength: 10 }), (start, payouts) => {
        let tranches = start;
        for (const payoutInr of payouts) {
          const before = sum(tranches.map((t) => t.remainingInr));
          const { attribution, remainingTranches } = allocate(tranches, payoutInr);
          const after = sum(remainingTranches.map((t) => t.remainingInr));
          expect(before.minus(after).eq(attribution ? payoutInr : 0)).toBe(true);
          expect(Boolean(attribution)).toBe(before.gte(payoutInr));
          tranches = remainingTranches;
        }
      }),
      { numRuns: RUNS },
    );
  });
});
