/**
 * A user who has passed KYC, written straight into state for tests of the money flows (`helpers.users.seedVerified`):
 * Aadhaar, PAN and, unless left out, a verified bank account, noted in the journal as the steps a user would take.
 */

import type { ServiceInternals } from '../../engine/internals.js';
import { nowIso } from '../../engine/timers.js';
import type { KycRecord } from '../../state/kyc.js';
import type { UserRecord } from '../../state/users.js';
import { maskAadhaar, maskPan, maskTail, SAMPLE_AADHAAR_NUMBER } from '../kyc.js';
import { recordStep, recordTransition } from '../transitions.js';
import { bankNameOf } from './bank.js';

/** The documents a seeded user verified (docs/sandbox-values.md shows the bank account). */
const SEEDED = { pan: 'ABCDE1234F', accountNumber: '123456789012', ifsc: 'HDFC0001234' };

/**
 * Records `user` (named `name`) as having passed KYC with status `kycStatus` (level `basic` when `verified`),
 * with a verified bank account when `bank` is true. Emits no webhook event.
 */
export function seedVerifiedKyc(
  mock: ServiceInternals,
  user: UserRecord,
  seeded: { name: string; bank: boolean; kycStatus: KycRecord['status'] },
): KycRecord {
  const { state } = mock;
  const { name, bank, kycStatus } = seeded;
  const at = nowIso(state);
  const verified = kycStatus === 'verified';
  const record: KycRecord = {
    userId: user.id,
    level: verified ? 'basic' : 'none',
    status: kycStatus,
    updatedAt: at,
    isPepRejected: false,
    aadhaar: {
      maskedNumber: maskAadhaar(SAMPLE_AADHAAR_NUMBER),
      nameOnAadhaar: name,
      verifiedAt: at,
      source: 'otp',
    },
    pan: { number: SEEDED.pan, maskedNumber: maskPan(SEEDED.pan), nameOnPan: name, verifiedAt: at },
    bank: bank
      ? {
          accountNumber: SEEDED.accountNumber,
          maskedAccountNumber: maskTail(SEEDED.accountNumber),
          bankName: bankNameOf(SEEDED.ifsc),
          ifsc: SEEDED.ifsc,
          accountHolderName: name,
          verifiedAt: at,
        }
      : undefined,
  };
  state.kyc.byUserId[user.id] = record;
  // Straight into state, yet in the journal as the steps a real user would have taken.
  const trigger = 'helpers.users.seedVerified';
  for (const step of ['mobile', 'aadhaar', 'pan', ...(bank ? ['bank' as const] : [])] as const) {
    recordStep(mock, user.id, step, trigger);
  }
  recordTransition(mock, {
    resource: 'kyc-aggregate',
    id: user.id,
    machine: 'kyc-aggregate',
    from: 'pending',
    to: kycStatus,
    trigger,
    detail: `level none -> ${verified ? 'basic' : 'none'}`,
    userId: user.id,
  });
  return record;
}
