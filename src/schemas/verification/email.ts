/**
 * Email OTP (spec 4.3 send; confirm assumed `POST /v2/users/{userId}/verify/email/confirm`,
 * docs/assumptions.md, mirroring the mobile confirm).
 */
import * as z from 'zod/mini';
import { Otp, Timestamp } from '../common.js';

/**
 * `POST /v2/users/{userId}/verify/email/send` data.
 * @example EmailOtpSent.parse({ maskedEmail: 'a***@example.com', expiresIn: 600 })
 */
export const EmailOtpSent = z.looseObject({ maskedEmail: z.string(), expiresIn: z.number() });
/** An OTP sent to the user's email. @example const { maskedEmail } = await client.users.email.sendOtp('usr_1'); */
export type EmailOtpSent = z.infer<typeof EmailOtpSent>;

/**
 * `POST /v2/users/{userId}/verify/email/confirm` body (assumed): `otp`, exactly 6 digits.
 * @example EmailConfirmRequest.parse({ otp: '654321' })
 */
export const EmailConfirmRequest = z.object({ otp: Otp });
/** Email OTP confirmation body. @example const p: EmailConfirmRequest = { otp: '654321' }; */
export type EmailConfirmRequest = z.infer<typeof EmailConfirmRequest>;

/**
 * `POST /v2/users/{userId}/verify/email/confirm` data (assumed).
 * @example EmailVerification.parse({ emailVerified: true, verifiedAt: '2024-01-15T10:32:00Z' })
 */
export const EmailVerification = z.looseObject({ emailVerified: z.boolean(), verifiedAt: Timestamp });
/** A confirmed email. @example const { emailVerified } = await client.users.email.confirm('usr_1', { otp: '654321' }); */
export type EmailVerification = z.infer<typeof EmailVerification>;
