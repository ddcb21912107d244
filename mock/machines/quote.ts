/**
 * The quote of a new transaction (spec 2.4, 4.2): gross INR at the sandbox exchange rate, the developer fee
 * (2.2, applied to new transactions only) and net INR. INR is rounded half-up to the paisa; decimal.js only.
 */
import { Decimal } from 'decimal.js';
import type { QuoteRecord } from '../state/transactions.js';

/** Quotes `amountUsd` at `exchangeRate` INR per USD with the developer fee `feePercent` (0 when disabled). */
export function quote(amountUsd: string, exchangeRate: string, feePercent: number): QuoteRecord {
  const gross = new Decimal(amountUsd).times(exchangeRate).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  // The fee is a JSON number on the wire (0 to 0.05); String() gives its shortest exact decimal form.
  const fee = gross.times(String(feePercent)).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  return {
    exchangeRate,
    feePercent,
    feeInr: fee.toFixed(2),
    grossInr: gross.toFixed(2),
    netInr: gross.minus(fee).toFixed(2),
  };
}

/**
 * The INR payout of `amountUsd` under an existing quote (same rate and fee percent), for a deposit that
 * differs from the expected amount.
 */
export function requote(existing: QuoteRecord, amountUsd: string): QuoteRecord {
  return quote(amountUsd, existing.exchangeRate, existing.feePercent);
}
