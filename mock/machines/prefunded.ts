/**
 * Prefunded credit arithmetic (spec 2.5, 8 "Prefunded exposure"): creating a prefunded transaction adds its
 * amount to `outstandingUsd`; confirmed receipt of the funds subtracts it; `availableUsd` is the limit less
 * the outstanding amount (never below zero). Pure functions over decimal strings (decimal.js).
 */
import { Decimal } from 'decimal.js';

/** The three figures of 2.5. */
export interface CreditFigures {
  creditLimitUsd: string;
  outstandingUsd: string;
  availableUsd: string;
}

/** The credit figures for a limit and an outstanding amount. */
export function creditFigures(creditLimitUsd: string, outstandingUsd: string): CreditFigures {
  const limit = new Decimal(creditLimitUsd);
  const outstanding = new Decimal(outstandingUsd);
  return {
    creditLimitUsd: limit.toFixed(),
    outstandingUsd: outstanding.toFixed(),
    availableUsd: Decimal.max(limit.minus(outstanding), 0).toFixed(),
  };
}

/** Whether `amountUsd` fits the available credit (equal fits). */
export function fitsAvailable(credit: CreditFigures, amountUsd: string): boolean {
  return new Decimal(amountUsd).lte(credit.availableUsd);
}

/** Outstanding after a prefunded payout is made (`+ amount`). */
export function holdCredit(outstandingUsd: string, amountUsd: string): string {
  return new Decimal(outstandingUsd).plus(amountUsd).toFixed();
}

/** Outstanding after the funds are received (`- amount`, never below zero). */
export function releaseCredit(outstandingUsd: string, amountUsd: string): string {
  return Decimal.max(new Decimal(outstandingUsd).minus(amountUsd), 0).toFixed();
}
