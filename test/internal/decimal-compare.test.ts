import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareDecimalStrings } from '../../src/internal/decimal-compare.js';
import { AmountUsd } from '../../src/schemas/common.js';

const digits = (min: number, max: number) =>
  fc.array(fc.constantFrom(...'0123456789'), { minLength: min, maxLength: max }).map((d) => d.join(''));
// Decimal strings with leading and trailing zeros, long integer parts and long fractions.
const decimalString = fc
  .tuple(digits(1, 25), fc.option(digits(1, 12), { nil: undefined }))
  .map(([int, frac]) => (frac === undefined ? int : `${int}.${frac}`));

describe('8: the amount rule compares decimal strings exactly', () => {
  it('8: compareDecimalStrings agrees with decimal.js on any two decimal strings', () => {
    fc.assert(
      fc.property(decimalString, decimalString, (a, b) => {
        expect(compareDecimalStrings(a, b)).toBe(new Decimal(a).comparedTo(new Decimal(b)));
      }),
      { numRuns: 2000 },
    );
  });

  it('8: compareDecimalStrings agrees with decimal.js around the limits 10 and 50,000', () => {
    const near = fc.constantFrom(
      '10',
      '9.99',
      '10.00',
      '010',
      '10.000001',
      '9.999999999999999999',
      '50000',
      '50000.0',
      '50000.01',
      '49999.999',
      '0',
      '0.0',
    );
    fc.assert(
      fc.property(near, fc.constantFrom('10', '50000'), (a, limit) => {
        expect(compareDecimalStrings(a, limit)).toBe(new Decimal(a).comparedTo(limit));
      }),
    );
  });

  it('8: AmountUsd accepts exactly the amounts from 10 to 50,000 USD inclusive', () => {
    fc.assert(
      fc.property(decimalString, (amount) => {
        const d = new Decimal(amount);
        expect(AmountUsd.safeParse(amount).success).toBe(d.gte(10) && d.lte(50000));
      }),
      { numRuns: 2000 },
    );
    for (const edge of ['10', '10.00', '50000', '050000.000'])
      expect(AmountUsd.safeParse(edge).success).toBe(true);
    for (const edge of ['9.999999999999999999999', '50000.000000000000000001'])
      expect(AmountUsd.safeParse(edge).success).toBe(false);
  });
});
