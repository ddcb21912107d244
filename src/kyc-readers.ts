/** Readers of KYC answers that apply the spec's rules (2.7, 3.3, 4.7, 4.8, 4.11). */
import { APIError } from './core/errors.js';
import { BankNameMismatch } from './schemas/kyc/bank.js';
import type { DeclarationRejected, DeclarationResult } from './schemas/kyc/declaration.js';
import type { KycStatus } from './schemas/kyc/status.js';
import type { UpiVerification } from './schemas/kyc/upi.js';

/**
 * Whether a block of the KYC status record is verified; a missing `verified` or block is false (spec 2.7 rule 2).
 * @example
 * ```ts
 * import { isVerified } from 'inr-payouts';
 * console.log(isVerified(undefined), isVerified({ verified: false }), isVerified({ verified: true })); // false false true
 * ```
 */
export function isVerified(block: { verified?: unknown } | null | undefined): boolean {
  return block?.verified === true;
}

/** A step spec 2.7 rule 4 requires. */
export type KycRequirement = 'aadhaar' | 'pan' | 'bank';

/** What `kycRequirements` reports. */
export interface KycRequirements {
  complete: boolean;
  /** Required steps not verified yet, in the order a user usually does them. */
  missing: KycRequirement[];
  /** Whether each optional step is verified. */
  optional: { face: boolean; upi: boolean };
}

/**
 * Spec 2.7 rule 4: Aadhaar and PAN for Indian users (`indian` defaults to true), a bank account for all.
 * @example
 * ```ts
 * import { kycRequirements } from 'inr-payouts';
 * const r = kycRequirements({ level: 'none', status: 'in_progress', aadhaar: { verified: true }, pan: { verified: true } }, { indian: true });
 * console.log(r.complete, r.missing); // false ['bank']
 * ```
 */
export function kycRequirements(status: KycStatus, options: { indian?: boolean } = {}): KycRequirements {
  const required: KycRequirement[] = options.indian === false ? ['bank'] : ['aadhaar', 'pan', 'bank'];
  const missing = required.filter((step) => !isVerified(status[step]));
  return {
    complete: missing.length === 0,
    missing,
    optional: { face: isVerified(status.face), upi: isVerified(status.upi) },
  };
}

/**
 * Every requirement is met but the status is not `verified` yet: call `kyc.refresh` (spec 3.3).
 * @example
 * ```ts
 * import { needsRefresh } from 'inr-payouts';
 * const status = { level: 'none', status: 'in_progress', aadhaar: { verified: true }, pan: { verified: true }, bank: { verified: true } };
 * console.log(needsRefresh(status)); // true
 * ```
 */
export function needsRefresh(status: KycStatus, options: { indian?: boolean } = {}): boolean {
  if (status.status === 'verified' || status.status === 'rejected') return false;
  return kycRequirements(status, options).complete;
}

/**
 * The outcome of a UPI verification (spec 4.8): `verified`, `name_mismatch` (score under 70) or `invalid_vpa`.
 * @example
 * ```ts
 * import { upiOutcome } from 'inr-payouts';
 * console.log(upiOutcome({ verified: false, name: null, bankName: null, nameMatchScore: null })); // 'invalid_vpa'
 * ```
 */
export function upiOutcome(result: UpiVerification): 'verified' | 'name_mismatch' | 'invalid_vpa' {
  if (result.verified) return 'verified';
  return result.nameMatchScore === null ? 'invalid_vpa' : 'name_mismatch';
}

/**
 * Whether a declaration submission was the PEP rejection (`kycStatus: 'rejected'`) rather than the record.
 * @example
 * ```ts
 * import { isDeclarationRejected } from 'inr-payouts';
 * console.log(isDeclarationRejected({ declarationId: 'dec_1', isPep: true, kycStatus: 'rejected' })); // true
 * ```
 */
export function isDeclarationRejected(result: DeclarationResult): result is DeclarationRejected {
  return (result as { kycStatus?: unknown }).kycStatus === 'rejected';
}

/**
 * The `{ expected, found, matchScore }` of a bank name mismatch (spec 4.7), or `undefined` for another error.
 * @example
 * ```ts
 * import { bankNameMismatch } from 'inr-payouts';
 * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
 * const bank = { accountNumber: '111111111111', ifsc: 'HDFC0001234', accountHolderName: 'Asha Rao' }; // sandbox: another holder
 * await client.kyc.bank.verify(userId, bank).catch((error: unknown) => {
 *   const mismatch = bankNameMismatch(error);
 *   if (mismatch) console.log(`${mismatch.found} is ${mismatch.matchScore}% like ${mismatch.expected}`);
 * });
 * ```
 */
export function bankNameMismatch(error: unknown): BankNameMismatch | undefined {
  if (!(error instanceof APIError) || error.code !== 'NAME_MISMATCH') return undefined;
  const parsed = BankNameMismatch.safeParse(error.data);
  return parsed.success ? parsed.data : undefined;
}
