/** UPI verification (spec 4.8): the UPI ID whose holder's name matched. */
import type { Explanation } from '../../engine/explain.js';
import type { ServiceInternals } from '../../engine/internals.js';
import type { KycRecord } from '../../state/kyc.js';
import type { UserRecord } from '../../state/users.js';
import { verifyStep } from '../kyc.js';

/** The stored result of a verified UPI ID. */
type UpiStep = NonNullable<KycRecord['upi']>;

/**
 * `POST /kyc/upi/verify` once the holder's name matched: records the UPI ID. `why` is what chose the outcome
 * (a test's choice), noted with the step.
 */
export function verifyUpi(
  mock: ServiceInternals,
  user: UserRecord,
  found: { upiId: string; name: string; nameMatchScore: number },
  why?: Explanation,
): UpiStep {
  return verifyStep(mock, user, 'upi', found, 'POST /kyc/upi/verify', why);
}
