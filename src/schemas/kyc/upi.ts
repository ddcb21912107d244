/**
 * UPI verification (spec 4.8), with its three outcomes, all `success: true`.
 */
import * as z from 'zod/mini';
import { DeviceId } from '../common.js';

/**
 * A UPI ID (VPA): `username@handle`. The username is 2 to 256 of letters, digits, `.`, `_`, `-` (so a
 * mobile number fits); the handle starts with a letter and has 2 to 65 letters, digits or `.`
 * (`upi`, `okhdfcbank`, `ybl`). Roughly what NPCI accepts; the service has the final word.
 * @example
 * ```ts
 * import { UPI_ID_PATTERN } from 'inr-payouts';
 * UPI_ID_PATTERN.test('9876543210@ybl') // true
 * ```
 */
export const UPI_ID_PATTERN = /^[a-zA-Z0-9._-]{2,256}@[a-zA-Z][a-zA-Z0-9.]{1,64}$/;
const UPI_RULE = 'upiId must be a UPI ID in the form username@handle, like asha@okhdfcbank';

/**
 * `POST /v2/users/{userId}/kyc/upi/verify` body.
 * @example
 * ```ts
 * import { UpiVerifyRequest } from 'inr-payouts';
 * UpiVerifyRequest.parse({ upiId: 'asha@okhdfcbank' })
 * ```
 */
export const UpiVerifyRequest = z.object({
  upiId: z.string({ error: UPI_RULE }).check(z.regex(UPI_ID_PATTERN, { error: UPI_RULE })),
  deviceId: z.optional(DeviceId),
});
/**
 * UPI verify body.
 * @example
 * ```ts
 * import { UpiVerifyRequest } from 'inr-payouts';
 * const p: UpiVerifyRequest = { upiId: '9876543210@ybl' };
 * ```
 */
export type UpiVerifyRequest = z.infer<typeof UpiVerifyRequest>;

/**
 * Outcome 1: name score of 70 or more, `verified: true`.
 * @example
 * ```ts
 * import { UpiVerified } from 'inr-payouts';
 * UpiVerified.parse({ verified: true, name: 'ASHA RAO', bankName: 'HDFC Bank', nameMatchScore: 92, message: 'UPI verified' })
 * ```
 */
export const UpiVerified = z.looseObject({
  verified: z.literal(true),
  name: z.string(),
  bankName: z.nullable(z.string()),
  nameMatchScore: z.number(),
  message: z.optional(z.string()),
});
/**
 * A verified UPI ID.
 * @example
 * ```ts
 * import { UpiVerification } from 'inr-payouts';
 * const r = UpiVerification.parse({ verified: true, name: 'Asha Rao', bankName: 'HDFC Bank', nameMatchScore: 100, message: 'UPI verified' });
 * if (r.verified) console.log(r.name); // Asha Rao
 * ```
 */
export type UpiVerified = z.infer<typeof UpiVerified>;

/**
 * Outcome 2: the VPA exists but its name scores under 70, `verified: false` with an explanatory message.
 * @example
 * ```ts
 * import { UpiNameMismatch } from 'inr-payouts';
 * UpiNameMismatch.parse({ verified: false, name: 'R K SINGH', bankName: 'SBI', nameMatchScore: 28, message: 'Name does not match' })
 * ```
 */
export const UpiNameMismatch = z.looseObject({
  verified: z.literal(false),
  name: z.string(),
  bankName: z.nullable(z.string()),
  nameMatchScore: z.number(),
  message: z.optional(z.string()),
});
/**
 * A UPI ID whose name does not match.
 * @example
 * ```ts
 * import { UpiNameMismatch } from 'inr-payouts';
 * const m: UpiNameMismatch = { verified: false, name: 'X', bankName: null, nameMatchScore: 10 };
 * ```
 */
export type UpiNameMismatch = z.infer<typeof UpiNameMismatch>;

/**
 * Outcome 3: an invalid VPA, `verified: false` with `name`, `bankName`, `nameMatchScore` all null.
 * @example
 * ```ts
 * import { UpiInvalidVpa } from 'inr-payouts';
 * UpiInvalidVpa.parse({ verified: false, name: null, bankName: null, nameMatchScore: null, message: 'Invalid VPA' })
 * ```
 */
export const UpiInvalidVpa = z.looseObject({
  verified: z.literal(false),
  name: z.null(),
  bankName: z.null(),
  nameMatchScore: z.null(),
  message: z.optional(z.string()),
});
/**
 * An invalid UPI ID.
 * @example
 * ```ts
 * import { UpiInvalidVpa } from 'inr-payouts';
 * const v: UpiInvalidVpa = { verified: false, name: null, bankName: null, nameMatchScore: null };
 * ```
 */
export type UpiInvalidVpa = z.infer<typeof UpiInvalidVpa>;

/**
 * `POST /v2/users/{userId}/kyc/upi/verify` data: one of the three outcomes. `upiOutcome(r)` names it;
 * `r.verified` and `r.nameMatchScore === null` narrow it.
 * @example
 * ```ts
 * import { UpiVerification } from 'inr-payouts';
 * const r = UpiVerification.parse({ verified: false, name: null, bankName: null, nameMatchScore: null });
 * if (!r.verified && r.nameMatchScore === null) console.log('invalid VPA');
 * ```
 */
export const UpiVerification = z.union([UpiVerified, UpiNameMismatch, UpiInvalidVpa]);
/**
 * A UPI verification answer.
 * @example
 * ```ts
 * import { UpiVerification } from 'inr-payouts';
 * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao', email: 'asha@example.com' });
 * const r: UpiVerification = await client.kyc.upi.verify(userId, { upiId: 'asha@okhdfcbank' });
 * ```
 */
export type UpiVerification = z.infer<typeof UpiVerification>;
