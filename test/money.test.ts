import {
  AttributionError,
  assertAttribution,
  blendedRate,
  canonicalDecimal,
  checkAttribution,
  compareDecimal,
  fitsCredit,
  sum,
  toDecimal,
} from 'inr-payouts/money';
import { describe, expect, it } from 'vitest';
import { allocations, completedPayout } from './support/fixtures.js';

describe('decimal strings', () => {
  it('canonicalDecimal drops leading and trailing zeros and never uses an exponent', () => {
    expect(canonicalDecimal('0100.500')).toBe('100.5');
    expect(canonicalDecimal('0.000')).toBe('0');
    expect(canonicalDecimal('-0')).toBe('0');
    expect(canonicalDecimal('100000000000000000000000.1')).toBe('100000000000000000000000.1');
    expect(canonicalDecimal('0.0000000001')).toBe('0.0000000001');
  });

  it('refuses numbers and exponents with an explanation', () => {
    expect(() => toDecimal(0.1 as unknown as string)).toThrow(/decimal string/);
    expect(() => toDecimal('1e3')).toThrow(/decimal string/);
  });

  it('sum is exact where floating point is not', () => {
    expect(sum(['0.1', '0.2'])).toBe('0.3');
    expect(sum([])).toBe('0');
    expect(compareDecimal('10.0', '10')).toBe(0);
    expect(compareDecimal('9.99', '10')).toBe(-1);
  });

  it('fitsCredit compares the amount with availableUsd exactly', () => {
    expect(fitsCredit({ availableUsd: '7500.00' }, '7500')).toBe(true);
    expect(fitsCredit({ availableUsd: '7500.00' }, '7500.01')).toBe(false);
  });
});

describe('rate attribution', () => {
  it('blendedRate is total INR over total USDT', () => {
    expect(blendedRate(allocations)).toBe('83.5');
    expect(
      blendedRate([{ dealId: 'a', dealNumber: 'A', rate: '83', inrAmount: '100', usdtAmount: '3' }], 4),
    ).toBe('33.3333');
  });

  it('a consistent payout has no problems (two tranches, blended rate)', () => {
    expect(checkAttribution(completedPayout)).toEqual([]);
    expect(() => assertAttribution(completedPayout)).not.toThrow();
  });

  it('a single tranche must carry its deal rate', () => {
    const single = {
      rate: '83.10',
      usdtEquivalent: '10',
      amountInr: '831.00',
      allocations: [{ dealId: 'd', dealNumber: 'D', rate: '83.1', inrAmount: '831.00', usdtAmount: '10' }],
    };
    expect(checkAttribution(single)).toEqual([]);
    expect(checkAttribution({ ...single, rate: '83.2' })).toEqual([expect.stringMatching(/deal rate/)]);
  });

  it('finds usdtEquivalent that is not the sum of usdtAmount', () => {
    expect(checkAttribution({ ...completedPayout, usdtEquivalent: '100.01' })).toEqual([
      expect.stringMatching(/usdtEquivalent 100.01 differs from the sum of allocations\[\]\.usdtAmount 100/),
    ]);
  });

  it('finds a rate that is not the blended rate', () => {
    expect(checkAttribution({ ...completedPayout, rate: '83.00' })).toEqual([
      expect.stringMatching(/blended rate/),
    ]);
  });

  it('tolerates rounding to the reported precision only', () => {
    const thirds = [
      { dealId: 'a', dealNumber: 'A', rate: '83', inrAmount: '830', usdtAmount: '10' },
      { dealId: 'b', dealNumber: 'B', rate: '84', inrAmount: '1680', usdtAmount: '20' },
    ];
    // 2510 / 30 = 83.6666...
    const payout = { rate: '83.67', usdtEquivalent: '30', amountInr: '2510', allocations: thirds };
    expect(checkAttribution(payout)).toEqual([]);
    expect(checkAttribution({ ...payout, rate: '83.68' })).toHaveLength(1);
  });

  it('finds an allocation whose INR is not its USDT at its rate, and INR that does not add up', () => {
    const bad = {
      ...completedPayout,
      allocations: [{ ...allocations[0], inrAmount: '4160.00' }, allocations[1]],
    };
    const problems = checkAttribution(bad as typeof completedPayout);
    expect(problems.some((p) => p.startsWith('allocations[0]'))).toBe(true);
    expect(problems.some((p) => p.startsWith('amountInr'))).toBe(true);
  });

  it('absent attribution is no problem (spec 2.4 rule 3); partial attribution is', () => {
    expect(checkAttribution({ rail: 'imps', status: 'completed' })).toEqual([]);
    expect(checkAttribution({ rate: '83' })).toEqual([expect.stringMatching(/partial/)]);
  });

  it('assertAttribution throws AttributionError listing the problems', () => {
    const error = (() => {
      try {
        assertAttribution({ ...completedPayout, usdtEquivalent: '1' });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(AttributionError);
    expect((error as AttributionError).problems).toHaveLength(1);
  });
});
