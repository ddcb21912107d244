/**
 * Email OTP (spec 4.3 send; confirm assumed `POST /v2/users/{userId}/verify/email/confirm`,
 * docs/assumptions.md, mirroring the mobile confirm).
 */
import * as z from 'zod/mini';
import { Otp, Timestamp } from '../common.js';

/**
 * `POST /v2/users/{userId}/verify/email/send` data.
 * @example
 * ```ts
 * import { EmailOtpSent } from 'inr-payouts';
 * EmailOtpSent.parse({ maskedEmail: 'a***@example.com', expiresIn: 600 })
 * ```
 */
export const EmailOtpSent = z.looseObject({ maskedEmail: z.string(), expiresIn: z.number() });
/**
 * An OTP sent to the user's email.
 * @example
 * ```ts
 * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao', email: 'asha@example.com' });
 * const { maskedEmail } = await client.users.email.sendOtp(userId);
 * ```
 */
export type EmailOtpSent = z.infer<typeof EmailOtpSent>;

/**
 * `POST /v2/users/{userId}/verify/email/confirm` body (assumed): `otp`, exactly 6 digits.
 * @example
 * ```ts
 * import { EmailConfirmRequest } from 'inr-payouts';
 * EmailConfirmRequest.parse({ otp: '654321' })
 * ```
 */
export const EmailConfirmRequest = z.object({ otp: Otp });
/**
 * Email OTP confirmation body.
 * @example
 * ```ts
 * import { EmailConfirmRequest } from 'inr-payouts';
 * const p: EmailConfirmRequest = { otp: '654321' };
 * ```
 */
export type EmailConfirmRequest = z.infer<typeof EmailConfirmRequest>;

/**
 * `POST /v2/users/{userId}/verify/email/confirm` data (assumed).
 * @example
 * ```ts
 * import { EmailVerification } from 'inr-payouts';
 * EmailVerification.parse({ emailVerified: true, verifiedAt: '2024-01-15T10:32:00Z' })
 * ```
 */
export const EmailVerification = z.looseObject({ emailVerified: z.boolean(), verifiedAt: Timestamp });
/**
 * A confirmed email.
 * @example
 * ```ts
 * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao', email: 'asha@example.com' });
 * await client.users.email.sendOtp(userId);
 * const { otp } = mock.helpers.otp.read({ userId, channel: 'email' });
 * const { emailVerified } = await client.users.email.confirm(userId, { otp });
 * ```
 */
export type EmailVerification = z.infer<typeof EmailVerification>;
