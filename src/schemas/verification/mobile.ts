/**
 * Mobile OTP (spec 4.3): send (no body) and confirm (6-digit `otp`).
 */
import * as z from 'zod/mini';
import { Otp, Timestamp } from '../common.js';

/**
 * `POST /v2/users/{userId}/verify/mobile/send` data.
 * @example
 * ```ts
 * import { MobileOtpSent } from 'inr-payouts';
 * MobileOtpSent.parse({ maskedMobile: '+91******3210', expiresIn: 600 })
 * ```
 */
export const MobileOtpSent = z.looseObject({ maskedMobile: z.string(), expiresIn: z.number() });
/**
 * An OTP sent to the user's mobile.
 * @example
 * ```ts
 * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao', email: 'asha@example.com' });
 * const { expiresIn } = await client.users.mobile.sendOtp(userId);
 * ```
 */
export type MobileOtpSent = z.infer<typeof MobileOtpSent>;

/**
 * `POST /v2/users/{userId}/verify/mobile/confirm` body: `otp`, exactly 6 digits.
 * @example
 * ```ts
 * import { MobileConfirmRequest } from 'inr-payouts';
 * MobileConfirmRequest.parse({ otp: '123456' })
 * ```
 */
export const MobileConfirmRequest = z.object({ otp: Otp });
/**
 * Mobile OTP confirmation body.
 * @example
 * ```ts
 * import { MobileConfirmRequest } from 'inr-payouts';
 * const p: MobileConfirmRequest = { otp: '123456' };
 * ```
 */
export type MobileConfirmRequest = z.infer<typeof MobileConfirmRequest>;

/**
 * `POST /v2/users/{userId}/verify/mobile/confirm` data.
 * @example
 * ```ts
 * import { MobileVerification } from 'inr-payouts';
 * MobileVerification.parse({ mobileVerified: true, verifiedAt: '2024-01-15T10:31:00Z' })
 * ```
 */
export const MobileVerification = z.looseObject({ mobileVerified: z.boolean(), verifiedAt: Timestamp });
/**
 * A confirmed mobile.
 * @example
 * ```ts
 * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao', email: 'asha@example.com' });
 * await client.users.mobile.sendOtp(userId);
 * const { otp } = mock.helpers.otp.read({ userId, channel: 'mobile' });
 * const { mobileVerified } = await client.users.mobile.confirm(userId, { otp });
 * ```
 */
export type MobileVerification = z.infer<typeof MobileVerification>;
