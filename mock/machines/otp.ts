/**
 * The OTP state machine (spec 4.3, 7.4, 8), a pure function of (channel state, event, now): 6-digit codes
 * valid 10 minutes, at most 3 sends per 10 minutes, at most 3 attempts per code, a new code invalidates the
 * old one. Routes turn the outcome into the answer.
 */
import { OTP_TTL_SECONDS } from '../../src/schemas/common.js';
import type { OtpChannelState } from '../state/verification.js';

/** Sends allowed in one window (spec 8). @example MAX_OTP_SENDS // 3 */
const MAX_OTP_SENDS = 3;
/** The send window (spec 8). @example OTP_SEND_WINDOW_MS // 600000 */
const OTP_SEND_WINDOW_MS = 10 * 60 * 1000;
/** Failed confirmations allowed per code (spec 8). @example MAX_OTP_ATTEMPTS // 3 */
export const MAX_OTP_ATTEMPTS = 3;

/**
 * An OTP event: a send carries the new code (drawn by the caller from the seeded PRNG, so this stays pure).
 */
export type OtpEvent = { type: 'send'; code: string } | { type: 'confirm'; code: string };

/** What happened. */
export type OtpOutcome =
  | { result: 'sent'; expiresIn: number }
  | { result: 'too_many_sends'; retryAfterMs: number }
  | { result: 'verified' }
  | { result: 'no_otp' }
  | { result: 'max_attempts' }
  | { result: 'invalid'; attemptsRemaining: number };

/** The next channel state and the outcome of `event` at `now` (epoch ms). The input is not changed. */
export function otpTransition(
  channel: OtpChannelState,
  event: OtpEvent,
  now: number,
): { next: OtpChannelState; outcome: OtpOutcome } {
  if (event.type === 'send') {
    const sends = channel.sends.filter((at) => now - Date.parse(at) < OTP_SEND_WINDOW_MS);
    const oldest = sends[0];
    if (sends.length >= MAX_OTP_SENDS && oldest) {
      const retryAfterMs = Date.parse(oldest) + OTP_SEND_WINDOW_MS - now;
      return { next: { ...channel, sends }, outcome: { result: 'too_many_sends', retryAfterMs } };
    }
    const sentAt = new Date(now).toISOString();
    const expiresAt = new Date(now + OTP_TTL_SECONDS * 1000).toISOString();
    return {
      next: {
        current: { code: event.code, sentAt, expiresAt, attempts: 0, status: 'active' },
        sends: [...sends, sentAt],
      },
      outcome: { result: 'sent', expiresIn: OTP_TTL_SECONDS },
    };
  }
  const current = channel.current;
  if (current?.status !== 'active') return { next: channel, outcome: { result: 'no_otp' } };
  if (current.attempts >= MAX_OTP_ATTEMPTS) return { next: channel, outcome: { result: 'max_attempts' } };
  if (now >= Date.parse(current.expiresAt) || event.code !== current.code) {
    // An expired code is "incorrect or expired" (spec 7.4) and costs an attempt like a wrong one.
    const attempts = current.attempts + 1;
    return {
      next: { ...channel, current: { ...current, attempts } },
      outcome: { result: 'invalid', attemptsRemaining: MAX_OTP_ATTEMPTS - attempts },
    };
  }
  return { next: { ...channel, current: { ...current, status: 'used' } }, outcome: { result: 'verified' } };
}
