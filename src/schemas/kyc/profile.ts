// Extended profile submission (assumed `POST /v2/users/{userId}/kyc/profile`, docs/assumptions.md; fields
// from the extended status, spec 2.8).
import * as z from 'zod/mini';
import { stringMatching } from '../../internal/checks.js';
import { DeviceId, requiredString, responseObject, Timestamp } from '../common.js';

const DOB_RULE = 'dateOfBirth must be a real date in the form YYYY-MM-DD';
const NATIONALITY_RULE = 'nationality must be an ISO 3166-1 alpha-2 country code in capitals, for example IN';
const PINCODE_RULE = 'pincode must be 6 digits';

/** `true` when `YYYY-MM-DD` names a real calendar date. */
function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [, y, m, d] = match.map(Number);
  if (y === undefined || m === undefined || d === undefined) return false;
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

const optionalText = (field: string) => z.optional(requiredString(field));

/** `POST /v2/users/{userId}/kyc/profile` body (assumed). */
export const ProfileSubmitRequest = z.object({
  dateOfBirth: z.string({ error: DOB_RULE }).check(z.refine(isCalendarDate, { error: DOB_RULE })),
  nationality: stringMatching(/^[A-Z]{2}$/, NATIONALITY_RULE),
  city: requiredString('city'),
  addressLine: optionalText('addressLine'),
  state: optionalText('state'),
  pincode: z.optional(stringMatching(/^\d{6}$/, PINCODE_RULE)),
  deviceId: z.optional(DeviceId),
});
/** Profile body. */
export type ProfileSubmitRequest = z.infer<typeof ProfileSubmitRequest>;

/** `POST /v2/users/{userId}/kyc/profile` data (assumed). */
export const Profile = responseObject({
  profileId: z.string(),
  dateOfBirth: z.string(),
  nationality: z.string(),
  city: z.string(),
  submittedAt: Timestamp,
});
/** A submitted profile. */
export type Profile = z.infer<typeof Profile>;
