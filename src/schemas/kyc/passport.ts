/** Passport verification (spec 4.6): a base64 PDF or photo. */
import * as z from 'zod/mini';
import { stringOfLength } from '../../internal/checks.js';
import { DeviceId, responseObject } from '../common.js';

const FILE_RULE = 'file is required and must be the passport PDF or photo, base64-encoded';
const FILE_NAME_RULE = 'fileName must be a non-empty file name, for example passport.pdf';

/** `POST /v2/users/{userId}/kyc/passport/verify` body: `file` (base64), `fileName?`, `deviceId?`. */
export const PassportVerifyRequest = z.object({
  file: stringOfLength(1, Infinity, FILE_RULE).check(z.regex(/^[A-Za-z0-9+/]+={0,2}$/, { error: FILE_RULE })),
  fileName: z.optional(stringOfLength(1, Infinity, FILE_NAME_RULE)),
  deviceId: z.optional(DeviceId),
});
/** Passport verify body. */
export type PassportVerifyRequest = z.infer<typeof PassportVerifyRequest>;

/** `POST /v2/users/{userId}/kyc/passport/verify` data. */
export const PassportVerification = responseObject({
  verified: z.boolean(),
  givenName: z.optional(z.string()),
  surname: z.optional(z.string()),
  nationality: z.optional(z.string()),
  dob: z.optional(z.string()),
});
/** A passport check. */
export type PassportVerification = z.infer<typeof PassportVerification>;
