// Email OTP (spec 4.3 send; confirm assumed `POST /v2/users/{userId}/verify/email/confirm`,
// docs/assumptions.md, mirroring the mobile confirm).
import * as z from 'zod/mini';
import { Otp, responseObject, Timestamp } from '../common.js';

/** `POST /v2/users/{userId}/verify/email/send` data. */
export const EmailOtpSent = responseObject({ maskedEmail: z.string(), expiresIn: z.number() });
/** An OTP sent to the user's email. */
export type EmailOtpSent = z.infer<typeof EmailOtpSent>;

/** `POST /v2/users/{userId}/verify/email/confirm` body (assumed): `otp`, exactly 6 digits. */
export const EmailConfirmRequest = z.object({ otp: Otp });
/** Email OTP confirmation body. */
export type EmailConfirmRequest = z.infer<typeof EmailConfirmRequest>;

/** `POST /v2/users/{userId}/verify/email/confirm` data (assumed). */
export const EmailVerification = responseObject({ emailVerified: z.boolean(), verifiedAt: Timestamp });
/** A confirmed email. */
export type EmailVerification = z.infer<typeof EmailVerification>;
