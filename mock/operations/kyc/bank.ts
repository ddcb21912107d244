/** Bank account verification by penny drop (spec 4.7): the account that passed, with the bank's holder name. */
import type { Explanation } from '../../engine/explain.js';
import type { ServiceInternals } from '../../engine/internals.js';
import type { BankStep } from '../../state/kyc.js';
import type { UserRecord } from '../../state/users.js';
import { maskTail, verifyStep } from '../kyc.js';

const BANKS: Record<string, string> = {
  HDFC: 'HDFC Bank',
  SBIN: 'State Bank of India',
  ICIC: 'ICICI Bank',
  UTIB: 'Axis Bank',
  KKBK: 'Kotak Mahindra Bank',
  PUNB: 'Punjab National Bank',
  YESB: 'Yes Bank',
};

/** The bank an IFSC belongs to (its first four letters): `HDFC0001234` is `HDFC Bank`. */
export function bankNameOf(ifsc: string): string {
  const code = ifsc.slice(0, 4);
  return BANKS[code] ?? `${code} Bank`;
}

/**
 * `POST /kyc/bank/verify` once the penny drop passed and the holder's name matched: records the account.
 * `why` is what chose the outcome (a test's choice), noted with the step.
 */
export function verifyBank(
  mock: ServiceInternals,
  user: UserRecord,
  account: { accountNumber: string; ifsc: string; accountHolderName: string },
  why?: Explanation,
): BankStep {
  const { accountNumber, ifsc } = account;
  const bank = {
    accountNumber,
    maskedAccountNumber: maskTail(accountNumber),
    bankName: bankNameOf(ifsc),
    // The last six characters "000000" stand for a head office: the bank returns no branch.
    branch: ifsc.endsWith('000000') ? undefined : `Branch ${ifsc.slice(5)}`,
    ifsc,
    accountHolderName: account.accountHolderName.toUpperCase(),
  };
  return verifyStep(mock, user, 'bank', bank, 'POST /kyc/bank/verify', why);
}
