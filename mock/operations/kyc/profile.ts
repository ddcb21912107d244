/** The extended profile (assumed, docs/assumptions.md): stored for the extended status (spec 2.8). */
import type { ProfileSubmitRequest } from '../../../src/schemas/kyc/profile.js';
import { nextId } from '../../engine/ids.js';
import type { ServiceInternals } from '../../engine/internals.js';
import { nowIso } from '../../engine/timers.js';
import type { ProfileStep } from '../../state/kyc.js';
import { kycRecord } from '../kyc.js';
import { recordStep } from '../transitions.js';

/** `POST /kyc/profile`: stores the profile, replacing an earlier one; the aggregate is not recomputed. */
export function submitProfile(
  mock: ServiceInternals,
  userId: string,
  fields: Omit<ProfileSubmitRequest, 'deviceId'>,
): ProfileStep {
  const { state } = mock;
  const record = kycRecord(state, userId);
  record.profile = { profileId: nextId(state, 'prof'), ...fields, submittedAt: nowIso(state) };
  recordStep(mock, userId, 'profile', 'POST /kyc/profile');
  return record.profile;
}
