/**
 * Reads whether a user may transact (spec 2.7 rule 4, 3.3, 7.3) from the KYC state. The one place the money
 * flows look at KYC, so when the KYC flows change their record only this reader follows.
 */
import type { BankStep } from '../state/kyc.js';
import type { MockState } from '../state/mock-state.js';
import { pick } from '../state/records.js';

/** The verified bank account a payout goes to. */
type PayoutBank = Pick<BankStep, 'maskedAccountNumber' | 'ifsc' | 'bankName' | 'accountHolderName'>;

/** What the transaction rules need to know about a user's KYC. */
export interface Eligibility {
  kycStatus: string;
  kycLevel: string;
  /** Status `verified` (spec 3.3: "the user can transact"). */
  kycVerified: boolean;
  /** At least `basic` (spec 7.3 `KYC_LEVEL_INSUFFICIENT`). */
  levelSufficient: boolean;
  /** The verified bank account, when there is one (spec 2.7 rule 4, `NO_BANK_ACCOUNT`). */
  bank?: PayoutBank;
}

/**
 * The user's eligibility as the KYC state says now (a user without a KYC record is `pending`, level `none`).
 */
export function readEligibility(state: MockState, userId: string): Eligibility {
  const record = state.kyc.byUserId[userId];
  const kycStatus = record?.status ?? 'pending';
  const kycLevel = record?.level ?? 'none';
  // The KYC flows store a bank step only once the penny drop and the name match passed.
  const step = record?.bank;
  const bank: PayoutBank | undefined =
    step && pick(step, ['maskedAccountNumber', 'ifsc', 'bankName', 'accountHolderName']);
  return {
    kycStatus,
    kycLevel,
    kycVerified: kycStatus === 'verified',
    levelSufficient: kycLevel === 'basic' || kycLevel === 'enhanced',
    bank,
  };
}
