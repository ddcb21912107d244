/**
 * Mobile OTP (spec 4.3): send (no body) and confirm (6-digit `otp`).
 */
import * as z from 'zod/mini';
import { Otp, Timestamp } from '../common.js';

/**
 * `POST /v2/users/{userId}/verify/mobile/send` data.
 * @example MobileOtpSent.parse({ maskedMobile: '+91******3210', expiresIn: 600 })
 */
export const MobileOtpSent = z.looseObject({ maskedMobile: z.string(), expiresIn: z.number() });
/** An OTP sent to the user's mobile. @example const { expiresIn } = await client.users.mobile.sendOtp('usr_1'); */
export type MobileOtpSent = z.infer<typeof MobileOtpSent>;

/**
 * `POST /v2/users/{userId}/verify/mobile/confirm` body: `otp`, exactly 6 digits.
 * @example MobileConfirmRequest.parse({ otp: '123456' })
 */
export const MobileConfirmRequest = z.object({ otp: Otp });
/** Mobile OTP confirmation body. @example const p: MobileConfirmRequest = { otp: '123456' }; */
export type MobileConfirmRequest = z.infer<typeof MobileConfirmRequest>;

/**
 * `POST /v2/users/{userId}/verify/mobile/confirm` data.
 * @example MobileVerification.parse({ mobileVerified: true, verifiedAt: '2024-01-15T10:31:00Z' })
 */
export const MobileVerification = z.looseObject({ mobileVerified: z.boolean(), verifiedAt: Timestamp });
/** A confirmed mobile. @example const { mobileVerified } = await client.users.mobile.confirm('usr_1', { otp: '123456' }); */
export type MobileVerification = z.infer<typeof MobileVerification>;
