/**
 * Mobile and email OTPs (spec 4.3, 8). One channel state per user and channel: the current OTP (a new one
 * replaces, and so invalidates, the old) and the send times still inside the 10-minute window.
 */
import { keyed } from './records.js';

/** The two OTP channels. */
export type OtpChannel = 'mobile' | 'email';

/** One OTP that was "sent". */
export interface OtpRecord {
  code: string;
  sentAt: string;
  expiresAt: string;
  /** Failed confirmations so far (at most 3 per OTP). */
  attempts: number;
  /** `used` once it verified the channel. */
  status: 'active' | 'used';
}

/** The OTP state of one user and channel. */
export interface OtpChannelState {
  current?: OtpRecord;
  /** Times of recent sends, oldest first; only those inside the window are kept. */
  sends: string[];
}

/** The verification collection. */
export interface VerificationSlice {
  /** `${userId}:${channel}` → channel state. */
  otps: Record<string, OtpChannelState>;
}

export function emptyVerification(): VerificationSlice {
  return { otps: keyed() };
}

/** The key of a user's channel in `otps`. */
export function otpKey(userId: string, channel: OtpChannel): string {
  return `${userId}:${channel}`;
}
