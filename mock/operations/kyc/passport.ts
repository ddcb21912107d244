/** Passport verification (spec 4.6): the identity read from a readable passport is the user's name on record. */

import type { ServiceInternals } from '../../engine/internals.js';
import type { KycRecord } from '../../state/kyc.js';
import type { UserRecord } from '../../state/users.js';
import { expectedName, kycRecord, verifyStep } from '../kyc.js';

/** The stored result of a verified passport. */
type PassportStep = NonNullable<KycRecord['passport']>;

/** `POST /kyc/passport/verify` once the file is a readable passport: records the identity read from it. */
export function verifyPassport(mock: ServiceInternals, user: UserRecord): PassportStep {
  const record = kycRecord(mock.state, user.id);
  const words = expectedName(user, record).toUpperCase().split(/\s+/).filter(Boolean);
  const surname = words.length > 1 ? (words.pop() ?? '') : '';
  const passport = {
    givenName: words.join(' '),
    surname,
    // The profile's nationality when it is not Indian (alpha-2 there; IND is the passport's alpha-3 for India).
    nationality: record.profile && record.profile.nationality !== 'IN' ? record.profile.nationality : 'IND',
    dob: record.profile?.dateOfBirth ?? '1990-01-01',
  };
  return verifyStep(mock, user, 'passport', passport, 'POST /kyc/passport/verify');
}
