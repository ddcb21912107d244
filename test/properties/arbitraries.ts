/**
 * Decimal-string arbitraries for the money properties: amounts are built from integers of the smallest unit
 * so every generated string is exact, as on the wire.
 */
import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import type { TrancheRecord } from '../../mock/state/transactions.js';

/** A decimal string with `places` decimals between `min` and `max` units of 10^-places. */
export function decimalString(places: number, min: number, max: number): fc.Arbitrary<string> {
  return fc.integer({ min, max }).map((units) => new Decimal(units).dividedBy(10 ** places).toFixed(places));
}

/** INR to the paisa, 0.01 to 10,000,000. */
export const inr = decimalString(2, 1, 1_000_000_000);

/** A deal rate (INR per USDT) with 2 to 4 decimals, 60 to 120. */
export const dealRate = fc.oneof(decimalString(2, 6_000, 12_000), decimalString(4, 600_000, 1_200_000));

/** A USD amount inside the service's limits (10 to 50,000) with up to 6 decimals. */
export const amountUsd = fc
  .oneof(
    decimalString(0, 10, 50_000),
    decimalString(2, 1_000, 5_000_000),
    decimalString(6, 10_000_000, 50_000_000_000),
  )
  .map((s) => new Decimal(s).toFixed());

/** A settled tranche; one in five already fully consumed. */
export const tranche: fc.Arbitrary<Omit<TrancheRecord, 'dealId' | 'dealNumber'>> = fc
  .record({ rate: dealRate, inrAmount: inr, spent: fc.nat(4) })
  .map(({ rate, inrAmount, spent }) => ({
    rate,
    inrAmount,
    remainingInr: spent === 0 ? '0.00' : inrAmount,
    settledAt: '2025-01-01T00:00:00.000Z',
  }));

/** A pool of 1 to 8 tranches, oldest first, with deal ids and numbers. */
export const pool: fc.Arbitrary<TrancheRecord[]> = fc
  .array(tranche, { minLength: 1, maxLength: 8 })
  .map((ts) =>
    ts.map((t, i) => ({ ...t, dealId: `deal_${i + 1}`, dealNumber: `D-${String(i + 1).padStart(4, '0')}` })),
  );

/** The sum of decimal strings, exactly. */
export function sum(values: readonly string[]): Decimal {
  return values.reduce((total, v) => total.plus(v), new Decimal(0));
}
