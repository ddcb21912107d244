/**
 * Passport verification (spec 4.6): a base64 PDF or photo.
 */
import * as z from 'zod/mini';
import { lengthBetween } from '../../internal/checks.js';
import { DeviceId } from '../common.js';

const FILE_RULE = 'file is required and must be the passport PDF or photo, base64-encoded';
const FILE_NAME_RULE = 'fileName must be a non-empty file name, for example passport.pdf';

/**
 * `POST /v2/users/{userId}/kyc/passport/verify` body: `file` (base64), `fileName?`, `deviceId?`.
 * @example
 * ```ts
 * import { PassportVerifyRequest } from 'inr-payouts';
 * PassportVerifyRequest.parse({ file: 'JVBERi0xLjQK', fileName: 'passport.pdf' })
 * ```
 */
export const PassportVerifyRequest = z.object({
  file: z
    .string({ error: FILE_RULE })
    .check(lengthBetween(1, Infinity, FILE_RULE), z.regex(/^[A-Za-z0-9+/]+={0,2}$/, { error: FILE_RULE })),
  fileName: z.optional(z.string({ error: FILE_NAME_RULE }).check(lengthBetween(1, Infinity, FILE_NAME_RULE))),
  deviceId: z.optional(DeviceId),
});
/**
 * Passport verify body.
 * @example
 * ```ts
 * import { PassportVerifyRequest } from 'inr-payouts';
 * const p: PassportVerifyRequest = { file: Buffer.from('%PDF-1.7').toString('base64'), fileName: 'passport.pdf' };
 * ```
 */
export type PassportVerifyRequest = z.infer<typeof PassportVerifyRequest>;

/**
 * `POST /v2/users/{userId}/kyc/passport/verify` data.
 * @example
 * ```ts
 * import { PassportVerification } from 'inr-payouts';
 * PassportVerification.parse({ verified: true, givenName: 'ASHA', surname: 'RAO', nationality: 'IND', dob: '1990-01-01' })
 * ```
 */
export const PassportVerification = z.looseObject({
  verified: z.boolean(),
  givenName: z.optional(z.string()),
  surname: z.optional(z.string()),
  nationality: z.optional(z.string()),
  dob: z.optional(z.string()),
});
/**
 * A passport check.
 * @example
 * ```ts
 * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao', email: 'asha@example.com' });
 * const file = Buffer.from('%PDF-1.7 passport scan').toString('base64');
 * const { verified } = await client.kyc.passport.verify(userId, { file });
 * ```
 */
export type PassportVerification = z.infer<typeof PassportVerification>;
