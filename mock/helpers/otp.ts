/** Reading the OTP that was "sent" (the mock sends no SMS or email). */
import { MockHelperError } from '../engine/errors.js';
import type { ServiceInternals } from '../engine/internals.js';
import { MAX_OTP_ATTEMPTS } from '../machines/otp.js';
import { type OtpChannel, type OtpRecord, otpKey } from '../state/verification.js';
import { userOf } from './lookup.js';

/** The last OTP sent to a user on a channel. */
export interface OtpReading extends Omit<OtpRecord, 'code'> {
  userId: string;
  channel: OtpChannel;
  /** The 6 digits. */
  otp: string;
  /** Whether the 10 minutes are over (on the virtual clock). */
  expired: boolean;
  attemptsRemaining: number;
}

export function otpHelpers(mock: ServiceInternals) {
  return {
    /**
     * The last OTP sent to `userId` on `channel`; throws when none was sent.
     * @example
     * ```ts
     * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao', email: 'asha@example.com' });
     * await client.users.email.sendOtp(userId);
     * const { otp } = mock.helpers.otp.read({ userId, channel: 'email' });
     * ```
     */
    read({ userId, channel }: { userId: string; channel: OtpChannel }): OtpReading {
      userOf(mock, userId);
      const current = mock.state.verification.otps[otpKey(userId, channel)]?.current;
      if (!current) {
        throw new MockHelperError(
          `No ${channel} OTP has been sent to ${userId}; send one with POST /v2/users/${userId}/verify/${channel}/send`,
        );
      }
      const { code, ...rest } = current;
      return {
        ...rest,
        userId,
        channel,
        otp: code,
        expired: mock.state.clock.now >= Date.parse(current.expiresAt),
        attemptsRemaining: Math.max(0, MAX_OTP_ATTEMPTS - current.attempts),
      };
    },
  };
}
