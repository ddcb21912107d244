/**
 * Aadhaar OTP (assumed, docs/assumptions.md): send an OTP for an Aadhaar number, then verify it. Fields
 * from the `aadhaar` block of the KYC status record (spec 2.7); `AADHAAR_OTP_EXPIRED` from 7.3.
 */
import * as z from 'zod/mini';
import { DeviceId, Otp, requiredString, Timestamp } from '../common.js';

const AADHAAR_RULE = 'aadhaarNumber must be exactly 12 digits';

/**
 * `POST /v2/users/{userId}/kyc/aadhaar/otp/send` body (assumed): `aadhaarNumber` (12 digits), `deviceId?`.
 * @example
 * ```ts
 * import { AadhaarOtpSendRequest } from 'inr-payouts';
 * AadhaarOtpSendRequest.parse({ aadhaarNumber: '123412341234' })
 * ```
 */
export const AadhaarOtpSendRequest = z.object({
  aadhaarNumber: z.string({ error: AADHAAR_RULE }).check(z.regex(/^\d{12}$/, { error: AADHAAR_RULE })),
  deviceId: z.optional(DeviceId),
});
/**
 * Aadhaar OTP send body.
 * @example
 * ```ts
 * import { AadhaarOtpSendRequest } from 'inr-payouts';
 * const p: AadhaarOtpSendRequest = { aadhaarNumber: '123412341234' };
 * ```
 */
export type AadhaarOtpSendRequest = z.infer<typeof AadhaarOtpSendRequest>;

/**
 * `POST /v2/users/{userId}/kyc/aadhaar/otp/send` data (assumed).
 * @example
 * ```ts
 * import { AadhaarOtpSent } from 'inr-payouts';
 * AadhaarOtpSent.parse({ referenceId: 'ref_1', maskedAadhaar: 'XXXX-XXXX-1234', expiresIn: 600, message: 'OTP sent' })
 * ```
 */
export const AadhaarOtpSent = z.looseObject({
  referenceId: z.string(),
  maskedAadhaar: z.string(),
  expiresIn: z.number(),
  message: z.optional(z.string()),
});
/**
 * An Aadhaar OTP session.
 * @example
 * ```ts
 * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao', email: 'asha@example.com' });
 * const { referenceId } = await client.kyc.aadhaar.sendOtp(userId, { aadhaarNumber: '123412341234' });
 * ```
 */
export type AadhaarOtpSent = z.infer<typeof AadhaarOtpSent>;

/**
 * `POST /v2/users/{userId}/kyc/aadhaar/otp/verify` body (assumed): `referenceId`, `otp` (6 digits), `deviceId?`.
 * @example
 * ```ts
 * import { AadhaarOtpVerifyRequest } from 'inr-payouts';
 * AadhaarOtpVerifyRequest.parse({ referenceId: 'ref_1', otp: '123456' })
 * ```
 */
export const AadhaarOtpVerifyRequest = z.object({
  referenceId: requiredString('referenceId'),
  otp: Otp,
  deviceId: z.optional(DeviceId),
});
/**
 * Aadhaar OTP verify body.
 * @example
 * ```ts
 * import { AadhaarOtpVerifyRequest } from 'inr-payouts';
 * const p: AadhaarOtpVerifyRequest = { referenceId: 'ref_1', otp: '123456' };
 * ```
 */
export type AadhaarOtpVerifyRequest = z.infer<typeof AadhaarOtpVerifyRequest>;

/**
 * `POST /v2/users/{userId}/kyc/aadhaar/otp/verify` data (assumed).
 * @example
 * ```ts
 * import { AadhaarVerification } from 'inr-payouts';
 * AadhaarVerification.parse({ verified: true, maskedNumber: 'XXXX-XXXX-1234', nameOnAadhaar: 'Asha Rao', verifiedAt: '2024-01-15T10:35:00Z' })
 * ```
 */
export const AadhaarVerification = z.looseObject({
  verified: z.boolean(),
  maskedNumber: z.optional(z.string()),
  nameOnAadhaar: z.optional(z.string()),
  verifiedAt: z.optional(Timestamp),
});
/**
 * A verified Aadhaar.
 * @example
 * ```ts
 * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao', email: 'asha@example.com' });
 * const { referenceId } = await client.kyc.aadhaar.sendOtp(userId, { aadhaarNumber: '123412341234' });
 * const { otp } = mock.helpers.kyc.aadhaarOtp({ referenceId });
 * const { nameOnAadhaar } = await client.kyc.aadhaar.verifyOtp(userId, { referenceId, otp });
 * ```
 */
export type AadhaarVerification = z.infer<typeof AadhaarVerification>;
