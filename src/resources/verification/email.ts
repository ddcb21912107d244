import type { ApiPromise } from '../../core/api-promise.js';
import type { Transport } from '../../core/transport.js';
import type { RequestOptions } from '../../core/types.js';
import type {
  EmailConfirmRequest,
  EmailOtpSent,
  EmailVerification,
} from '../../schemas/verification/email.js';
import { callEndpoint, callForUser } from '../shared.js';

/**
 * Email OTP verification (spec 4.3): the user needs an email on file (`No Email` otherwise); limits as mobile.
 * @example
 * ```ts
 * const { userId } = await client.users.create({ mobile: '9876543210', email: 'asha@example.com' });
 * await client.users.email.sendOtp(userId);
 * const { otp } = mock.helpers.otp.read({ userId, channel: 'email' }); // what the user received
 * const { emailVerified } = await client.users.email.confirm(userId, { otp });
 * ```
 */
export class EmailVerificationResource {
  constructor(private readonly transport: Transport) {}

  /** `POST /v2/users/{userId}/verify/email/send`: a 6-digit OTP to the user's email; see the class example. */
  sendOtp(userId: string, options?: RequestOptions): ApiPromise<EmailOtpSent> {
    return callEndpoint(this.transport, 'users.email.sendOtp', { params: { userId } }, options);
  }

  /** `POST /v2/users/{userId}/verify/email/confirm` (path assumed); the class example shows the flow. */
  confirm(
    userId: string,
    params: EmailConfirmRequest,
    options?: RequestOptions,
  ): ApiPromise<EmailVerification> {
    return callForUser(this.transport, 'users.email.confirm', userId, params, options);
  }
}
