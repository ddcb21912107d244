/** User creation (assumed `POST /v2/users`, docs/assumptions.md; spec 2.3 and `USER_EXISTS` in 7.3). */
import * as z from 'zod/mini';
import { stringMatching, stringOfLength } from '../internal/checks.js';
import { DeviceId, responseObject, Timestamp } from './common.js';

/** An Indian mobile number: 10 digits starting 6 to 9, `+91` optional. */
export const INDIAN_MOBILE_PATTERN = /^(\+91)?[6-9]\d{9}$/;

const MOBILE_RULE = 'mobile must be an Indian mobile number: 10 digits starting with 6 to 9, +91 optional';
const EMAIL_RULE = 'email must be an email address';
// zod's own email pattern, applied with z.regex: z.email() would add its format schema to the client bundle.
const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
const NAME_RULE = 'name must be a non-empty string';

/** `POST /v2/users` body (assumed): `mobile` (required), `email`, `name`, `deviceId` (optional). */
export const UserCreateRequest = z.object({
  mobile: stringMatching(INDIAN_MOBILE_PATTERN, MOBILE_RULE),
  email: z.optional(stringMatching(EMAIL_PATTERN, EMAIL_RULE)),
  name: z.optional(stringOfLength(1, Infinity, NAME_RULE)),
  deviceId: z.optional(DeviceId),
});
/** User create body. */
export type UserCreateRequest = z.infer<typeof UserCreateRequest>;

/** `POST /v2/users` data (assumed): the user record, mobile stored as `+91XXXXXXXXXX`. */
export const User = responseObject({
  userId: z.string(),
  mobile: z.string(),
  email: z.optional(z.nullable(z.string())),
  name: z.optional(z.nullable(z.string())),
  mobileVerified: z.boolean(),
  emailVerified: z.boolean(),
  createdAt: Timestamp,
});
/** A user. */
export type User = z.infer<typeof User>;
