/** Completing a mobile or email verification without an OTP, for tests that start further along. */
import { MockTransitionError } from '../engine/errors.js';
import type { ServiceInternals } from '../engine/internals.js';
import { nowIso } from '../engine/timers.js';
import { markVerified } from '../operations/verification.js';
import type { OtpChannel } from '../state/verification.js';
import { userOf } from './lookup.js';

export function verificationHelpers(mock: ServiceInternals) {
  return {
    /**
     * Marks the channel verified as a confirmed OTP would; refused when it already is, or (email) when the
     * user has no email.
     * @example
     * ```ts
     * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao', email: 'asha@example.com' });
     * mock.helpers.verification.complete({ userId, channel: 'mobile' });
     * ```
     */
    complete({ userId, channel }: { userId: string; channel: OtpChannel }): { verifiedAt: string } {
      const user = userOf(mock, userId);
      const subject = `the ${channel} verification of ${userId}`;
      if (channel === 'email' && !user.email) {
        throw new MockTransitionError({
          subject,
          action: 'complete',
          state: 'impossible (the user has no email address)',
          allowed: ['unverified with an email on file'],
          section: '4.3',
        });
      }
      const verified = channel === 'mobile' ? user.mobileVerified : user.emailVerified;
      if (verified)
        throw new MockTransitionError({
          subject,
          action: 'complete',
          state: 'verified',
          allowed: ['unverified'],
          section: '4.3',
        });
      const verifiedAt = nowIso(mock.state);
      markVerified(mock, user, channel, verifiedAt, 'helpers.verification.complete');
      return { verifiedAt };
    },
  };
}
