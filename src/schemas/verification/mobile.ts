/** Mobile OTP (spec 4.3): send (no body) and confirm (6-digit `otp`). */
import * as z from 'zod/mini';
import { Otp, responseObject, Timestamp } from '../common.js';

/** `POST /v2/users/{userId}/verify/mobile/send` data. */
export const MobileOtpSent = responseObject({ maskedMobile: z.string(), expiresIn: z.number() });
/** An OTP sent to the user's mobile. */
export type MobileOtpSent = z.infer<typeof MobileOtpSent>;

/** `POST /v2/users/{userId}/verify/mobile/confirm` body: `otp`, exactly 6 digits. */
export const MobileConfirmRequest = z.object({ otp: Otp });
/** Mobile OTP confirmation body. */
export type MobileConfirmRequest = z.infer<typeof MobileConfirmRequest>;

/** `POST /v2/users/{userId}/verify/mobile/confirm` data. */
export const MobileVerification = responseObject({ mobileVerified: z.boolean(), verifiedAt: Timestamp });
/** A confirmed mobile. */
export type MobileVerification = z.infer<typeof MobileVerification>;
