/**
 * `inr-payouts/money`: exact arithmetic on the wire's decimal strings (decimal.js), never floating point; its own
 * entry, so the client does not carry decimal.js.
 * @module inr-payouts/money
 */
import { Decimal } from 'decimal.js';
import { PayoutError } from './core/errors.js';
import type { Allocation, Payout } from './schemas/transactions.js';

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** A decimal string or a decimal.js value. */
export type DecimalInput = string | Decimal;

/**
 * Parses a plain decimal string (`'100'`, `'0.50'`, `'-3.2'`) into decimal.js; numbers and exponents are refused.
 * @example
 * ```ts
 * import { toDecimal } from 'inr-payouts/money';
 * console.log(toDecimal('8342.50').plus('0.5').toFixed()); // '8343'
 * ```
 */
export function toDecimal(value: DecimalInput): Decimal {
  if (Decimal.isDecimal(value)) return value;
  if (typeof value !== 'string' || !DECIMAL.test(value)) {
    throw new TypeError(
      `Expected a decimal string such as "100.50", got ${JSON.stringify(value)}. Money travels as decimal strings; ` +
        'pass the string from the response (or format a number with toFixed) instead.',
    );
  }
  return new Decimal(value);
}

/**
 * The canonical decimal string: no exponent, leading or trailing zeros, so equal amounts are equal strings.
 * @example
 * ```ts
 * import { canonicalDecimal } from 'inr-payouts/money';
 * console.log(canonicalDecimal('0100.500')); // '100.5'
 * ```
 */
export function canonicalDecimal(value: DecimalInput): string {
  const decimal = toDecimal(value);
  return decimal.isZero() ? '0' : decimal.toFixed();
}

/**
 * The exact sum of decimal strings, as a canonical decimal string.
 * @example
 * ```ts
 * import { sum } from 'inr-payouts/money';
 * console.log(sum(['0.1', '0.2'])); // '0.3'
 * ```
 */
export function sum(values: readonly DecimalInput[]): string {
  return canonicalDecimal(values.reduce<Decimal>((total, v) => total.plus(toDecimal(v)), new Decimal(0)));
}

/**
 * The blended rate of a payout's allocations: total INR over total USDT, exact or rounded half-up to `decimals`.
 * @example
 * ```ts
 * import { blendedRate } from 'inr-payouts/money';
 * const tranche = { dealId: 'd1', dealNumber: 'D-1', rate: '83', inrAmount: '830', usdtAmount: '10' };
 * console.log(blendedRate([tranche, { ...tranche, rate: '84', inrAmount: '840' }])); // '83.5'
 * ```
 */
export function blendedRate(allocations: readonly Allocation[], decimals?: number): string {
  const usdt = toDecimal(sum(allocations.map((a) => a.usdtAmount)));
  if (usdt.isZero()) throw new RangeError('blendedRate needs allocations with a non-zero total usdtAmount.');
  const rate = toDecimal(sum(allocations.map((a) => a.inrAmount))).dividedBy(usdt);
  return canonicalDecimal(
    decimals === undefined ? rate : rate.toDecimalPlaces(decimals, Decimal.ROUND_HALF_UP),
  );
}

function places(value: string): number {
  const dot = value.indexOf('.');
  return dot < 0 ? 0 : value.length - dot - 1;
}

/** How far a rounded figure can be from the exact one: half a unit of its last place (at least `minPlaces`). */
function halfUnit(value: string, minPlaces: number): Decimal {
  return new Decimal(10).pow(-Math.max(places(value), minPlaces)).dividedBy(2);
}

function closeTo(reported: string, exact: Decimal, minPlaces = 0): boolean {
  return toDecimal(reported).minus(exact).abs().lte(halfUnit(reported, minPlaces));
}

const INR_PLACES = 2;
const USDT_PLACES = 6;

/**
 * The problems of a payout's rate attribution against spec 2.4 (none when it holds or is absent): sums of USDT and
 * INR, each allocation at its rate, and `rate` the deal rate of one tranche or the blend of several.
 * @example
 * ```ts
 * import { checkAttribution } from 'inr-payouts/money';
 * const allocations = [{ dealId: 'd1', dealNumber: 'D-1', rate: '83', inrAmount: '8300', usdtAmount: '100' }];
 * console.log(checkAttribution({ amountInr: '8300', rate: '83', usdtEquivalent: '100', allocations })); // []
 * ```
 */
export function checkAttribution(payout: Payout): string[] {
  const { rate, usdtEquivalent, allocations } = payout;
  if (rate === undefined && usdtEquivalent === undefined && allocations === undefined) return [];
  if (rate === undefined || usdtEquivalent === undefined || allocations === undefined) {
    return ['the attribution is partial: rate, usdtEquivalent and allocations come together'];
  }
  const problems: string[] = [];
  if (allocations.length === 0) return ['allocations is empty: a payout consumes at least one tranche'];
  // `name` is the sum of the allocations' `field`.
  const checkSum = (name: string, value: string, field: 'usdtAmount' | 'inrAmount') => {
    const total = sum(allocations.map((a) => a[field]));
    const problem = `${name} ${value} differs from the sum of allocations[].${field} ${total}`;
    if (!toDecimal(value).eq(total)) problems.push(problem);
  };
  checkSum('usdtEquivalent', usdtEquivalent, 'usdtAmount');
  allocations.forEach((a, i) => {
    const inrAtRate = toDecimal(a.usdtAmount).times(toDecimal(a.rate));
    const usdtAtRate = toDecimal(a.inrAmount).dividedBy(toDecimal(a.rate));
    if (!closeTo(a.inrAmount, inrAtRate, INR_PLACES) && !closeTo(a.usdtAmount, usdtAtRate, USDT_PLACES)) {
      problems.push(
        `allocations[${i}]: inrAmount ${a.inrAmount} is not usdtAmount ${a.usdtAmount} at rate ${a.rate}`,
      );
    }
  });
  const [only] = allocations;
  if (allocations.length === 1 && only) {
    if (!toDecimal(rate).eq(toDecimal(only.rate))) {
      problems.push(`rate ${rate} differs from the deal rate ${only.rate} of its single tranche`);
    }
  } else if (!closeTo(rate, toDecimal(blendedRate(allocations)))) {
    problems.push(
      `rate ${rate} is not the blended rate ${blendedRate(allocations, places(rate) + 2)} of its tranches`,
    );
  }
  if (typeof payout.amountInr === 'string') checkSum('amountInr', payout.amountInr, 'inrAmount');
  return problems;
}

/**
 * A payout's rate attribution breaks an invariant of spec 2.4; `problems` lists each one.
 * @example
 * ```ts
 * import { AttributionError, assertAttribution } from 'inr-payouts/money';
 * try { assertAttribution({ rate: '83', usdtEquivalent: '10', allocations: [] }); }
 * catch (error) { if (error instanceof AttributionError) console.log(error.problems); } // ['allocations is empty: …']
 * ```
 */
export class AttributionError extends PayoutError {
  override name = 'AttributionError';
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(
      `The payout's rate attribution is inconsistent: ${problems.join('; ')}. Report it to the service with the transaction ID.`,
    );
    this.problems = problems;
  }
}

/**
 * Throws `AttributionError` when `checkAttribution` finds a problem.
 * @example
 * ```ts
 * import { assertAttribution } from 'inr-payouts/money';
 * assertAttribution({ rate: '83', usdtEquivalent: '10', allocations: [{ dealId: 'd', dealNumber: 'D', rate: '83', inrAmount: '830', usdtAmount: '10' }] });
 * ```
 */
export function assertAttribution(payout: Payout): void {
  const problems = checkAttribution(payout);
  if (problems.length > 0) throw new AttributionError(problems);
}

/**
 * `true` when `amount` USD fits in the available prefunded credit (`availableUsd`).
 * @example
 * ```ts
 * import { fitsCredit } from 'inr-payouts/money';
 * console.log(fitsCredit({ availableUsd: '7500' }, '7500.00')); // true
 * ```
 */
export function fitsCredit(credit: { availableUsd: string }, amount: DecimalInput): boolean {
  return toDecimal(amount).lte(toDecimal(credit.availableUsd));
}

/**
 * Compares two decimal strings exactly: -1, 0 or 1.
 * @example
 * ```ts
 * import { compareDecimal } from 'inr-payouts/money';
 * console.log(compareDecimal('10.0', '10')); // 0
 * ```
 */
export function compareDecimal(a: DecimalInput, b: DecimalInput): -1 | 0 | 1 {
  return toDecimal(a).comparedTo(toDecimal(b)) as -1 | 0 | 1;
}
