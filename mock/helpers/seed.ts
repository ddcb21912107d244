/**
 * A shortcut for tests of the money flows: a user who has passed KYC (status `verified`, level `basic`,
 * Aadhaar, PAN and a verified bank account), written straight into state. It skips the KYC endpoints on
 * purpose; tests of KYC itself go through them.
 */
import type { User } from '../../src/schemas/users.js';
import { MockHelperError } from '../engine/errors.js';
import type { ServiceInternals } from '../engine/internals.js';
import { seedVerifiedKyc } from '../operations/kyc/seed.js';
import { registerUser, userData } from '../operations/users.js';
import type { KycRecord } from '../state/kyc.js';
import { accountOf } from './lookup.js';

/** What `seedVerified` makes. */
export interface VerifiedUserInput {
  mobile: string;
  name?: string;
  email?: string;
  /** The account; default the service's account. */
  accountId?: string;
  /** `false` leaves out the verified bank account (for `NO_BANK_ACCOUNT`); default true. */
  bank?: boolean;
  /** KYC status to record instead of `verified` (for `KYC_INCOMPLETE`). */
  kycStatus?: KycRecord['status'];
}

export function userSeedHelpers(mock: ServiceInternals) {
  return {
    /**
     * Creates a user whose KYC is verified with a verified bank account, written straight into state: it sends
     * no webhook event, neither `user.created` nor any `kyc.*` (`kyc.verified`...), so a receiver under test
     * hears of the user first from the transaction's events. To test those events, go through the API.
     * @example
     * ```ts
     * import { createMockService } from 'inr-payouts/mock';
     *
     * const mock = createMockService();
     * const asha = mock.helpers.users.seedVerified({ mobile: '9876543210', name: 'Asha Rao' });
     * if (mock.state.kyc.byUserId[asha.userId]?.status !== 'verified') throw new Error('verified');
     * ```
     */
    seedVerified(input: VerifiedUserInput): User {
      const { accountId = mock.state.accounts.defaultId, bank = true, kycStatus = 'verified' } = input;
      const state = mock.state;
      accountOf(mock, accountId);
      const name = input.name ?? 'Asha Rao';
      const user = registerUser(state, accountId, {
        mobile: input.mobile,
        name,
        email: input.email,
        mobileVerified: true,
      });
      if (!user)
        throw new MockHelperError(`Mobile ${input.mobile} is already registered on account ${accountId}`);
      seedVerifiedKyc(mock, user, { name, bank, kycStatus });
      return structuredClone(userData(user));
    },
  };
}
