/**
 * Mobile and email verification (spec 4.3): sending and confirming an OTP, and marking a channel verified. The
 * OTP routes and `mock.helpers.verification.complete` both end in `markVerified`.
 */
import { OTP_LENGTH } from '../../src/schemas/common.js';
import { randomDigits } from '../engine/ids.js';
import type { ServiceInternals } from '../engine/internals.js';
import { isoAt } from '../engine/timers.js';
import { type OtpOutcome, otpTransition } from '../machines/otp.js';
import type { MockState } from '../state/mock-state.js';
import type { UserRecord } from '../state/users.js';
import { type OtpChannel, otpKey } from '../state/verification.js';
import { recordStep } from './transitions.js';

/**
 * Sends a new OTP on `channel`. A refused send (too many in the window) changes nothing: the code is drawn from
 * the seeded PRNG only for a send that happens.
 */
export function sendOtp(state: MockState, userId: string, channel: OtpChannel, now: number): OtpOutcome {
  const key = otpKey(userId, channel);
  const current = state.verification.otps[key] ?? { sends: [] };
  const check = otpTransition(current, { type: 'send', code: '' }, now);
  if (check.outcome.result !== 'sent') return check.outcome;
  const { next, outcome } = otpTransition(
    current,
    { type: 'send', code: randomDigits(state, OTP_LENGTH) },
    now,
  );
  state.verification.otps[key] = next;
  return outcome;
}

/**
 * Checks `code` against the channel's OTP; a wrong code counts as an attempt, the right one marks the channel
 * verified (`trigger` names the request in the journal). With no OTP to check, nothing changes.
 */
export function confirmOtp(
  mock: ServiceInternals,
  user: UserRecord,
  channel: OtpChannel,
  code: string,
  now: number,
  trigger: string,
): OtpOutcome {
  const { state } = mock;
  const key = otpKey(user.id, channel);
  const current = state.verification.otps[key];
  if (!current) return { result: 'no_otp' };
  const { next, outcome } = otpTransition(current, { type: 'confirm', code }, now);
  if (next !== current) state.verification.otps[key] = next;
  if (outcome.result === 'verified') markVerified(mock, user, channel, isoAt(now), trigger);
  return outcome;
}

/** Marks `channel` of `user` verified at `at` and notes the step in the journal under `trigger`. */
export function markVerified(
  mock: ServiceInternals,
  user: UserRecord,
  channel: OtpChannel,
  at: string,
  trigger: string,
): void {
  if (channel === 'mobile') Object.assign(user, { mobileVerified: true, mobileVerifiedAt: at });
  else Object.assign(user, { emailVerified: true, emailVerifiedAt: at });
  recordStep(mock, user.id, channel, trigger);
}
