import type { ApiPromise } from '../../core/api-promise.js';
import type { Transport } from '../../core/transport.js';
import type { RequestOptions } from '../../core/types.js';
import type {
  MobileConfirmRequest,
  MobileOtpSent,
  MobileVerification,
} from '../../schemas/verification/mobile.js';
import { callEndpoint, callForUser } from '../shared.js';

/**
 * Mobile OTP verification (spec 4.3): at most 3 sends per 10 minutes, 3 attempts per OTP, each OTP valid 600 s;
 * a new OTP invalidates earlier ones. A wrong OTP throws with `attemptsRemaining`.
 * @example
 * ```ts
 * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
 * await client.users.mobile.sendOtp(userId);
 * const { otp } = mock.helpers.otp.read({ userId, channel: 'mobile' }); // what the user received
 * const { mobileVerified } = await client.users.mobile.confirm(userId, { otp });
 * ```
 */
export class MobileVerificationResource {
  constructor(private readonly transport: Transport) {}

  /** `POST /v2/users/{userId}/verify/mobile/send`: a 6-digit OTP to the user's mobile; see the class example. */
  sendOtp(userId: string, options?: RequestOptions): ApiPromise<MobileOtpSent> {
    return callEndpoint(this.transport, 'users.mobile.sendOtp', { params: { userId } }, options);
  }

  /** `POST /v2/users/{userId}/verify/mobile/confirm`: confirms the OTP; the class example shows the flow. */
  confirm(
    userId: string,
    params: MobileConfirmRequest,
    options?: RequestOptions,
  ): ApiPromise<MobileVerification> {
    return callForUser(this.transport, 'users.mobile.confirm', userId, params, options);
  }
}
