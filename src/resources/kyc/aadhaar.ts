import type { ApiPromise } from '../../core/api-promise.js';
import type { Transport } from '../../core/transport.js';
import type { RequestOptions } from '../../core/types.js';
import type {
  AadhaarOtpSendRequest,
  AadhaarOtpSent,
  AadhaarOtpVerifyRequest,
  AadhaarVerification,
} from '../../schemas/kyc/aadhaar.js';
import { callForUser } from '../shared.js';

/**
 * Aadhaar OTP verification (endpoints assumed, docs/assumptions.md): send an OTP, then verify it with the
 * `referenceId` within 600 s (`AADHAAR_OTP_EXPIRED` after).
 * @example
 * ```ts
 * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
 * const { referenceId } = await client.kyc.aadhaar.sendOtp(userId, { aadhaarNumber: '123412341234' });
 * const { otp } = mock.helpers.kyc.aadhaarOtp({ referenceId }); // the code the user received
 * const { nameOnAadhaar } = await client.kyc.aadhaar.verifyOtp(userId, { referenceId, otp });
 * ```
 */
export class AadhaarResource {
  constructor(private readonly transport: Transport) {}

  /** `POST /v2/users/{userId}/kyc/aadhaar/otp/send` (assumed): an OTP to the Aadhaar's mobile; see the class. */
  sendOtp(
    userId: string,
    params: AadhaarOtpSendRequest,
    options?: RequestOptions,
  ): ApiPromise<AadhaarOtpSent> {
    return callForUser(this.transport, 'kyc.aadhaar.sendOtp', userId, params, options);
  }

  /** `POST /v2/users/{userId}/kyc/aadhaar/otp/verify` (assumed); the class example shows the flow. */
  verifyOtp(
    userId: string,
    params: AadhaarOtpVerifyRequest,
    options?: RequestOptions,
  ): ApiPromise<AadhaarVerification> {
    return callForUser(this.transport, 'kyc.aadhaar.verifyOtp', userId, params, options);
  }
}
