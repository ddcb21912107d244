/**
 * Aadhaar OTP (assumed, docs/assumptions.md): sending opens a session whose 6-digit code lives 600 s;
 * verifying spends an attempt or, with the right code, uses the session and records the Aadhaar.
 */
import { OTP_LENGTH, OTP_TTL_SECONDS } from '../../../src/schemas/common.js';
import { nextId, randomDigits } from '../../engine/ids.js';
import type { ServiceInternals } from '../../engine/internals.js';
import { MAX_OTP_ATTEMPTS } from '../../machines/otp.js';
import type { AadhaarOtpRecord, AadhaarStep } from '../../state/kyc.js';
import type { MockState } from '../../state/mock-state.js';
import type { UserRecord } from '../../state/users.js';
import { expectedName, kycRecord, maskAadhaar, verifyStep } from '../kyc.js';
import { recordTransition } from '../transitions.js';

/** `POST /kyc/aadhaar/otp/send`: a new session with a fresh code for `aadhaarNumber`. */
export function sendAadhaarOtp(state: MockState, userId: string, aadhaarNumber: string): AadhaarOtpRecord {
  const referenceId = nextId(state, 'aref');
  const session: AadhaarOtpRecord = {
    referenceId,
    userId,
    aadhaarNumber,
    code: randomDigits(state, OTP_LENGTH),
    attempts: 0,
    status: 'active',
    expiresAt: new Date(state.clock.now + OTP_TTL_SECONDS * 1000).toISOString(),
  };
  state.kyc.aadhaarOtps[referenceId] = session;
  return session;
}

/**
 * `POST /kyc/aadhaar/otp/verify` on a live session: a wrong code spends an attempt; the right one uses the
 * session and records the Aadhaar with the name on record.
 */
export function verifyAadhaarOtp(
  mock: ServiceInternals,
  user: UserRecord,
  session: AadhaarOtpRecord,
  otp: string,
): { ok: true; aadhaar: AadhaarStep } | { ok: false; attemptsRemaining: number } {
  const { state } = mock;
  if (otp !== session.code) {
    session.attempts += 1;
    return { ok: false, attemptsRemaining: MAX_OTP_ATTEMPTS - session.attempts };
  }
  const trigger = 'POST /kyc/aadhaar/otp/verify';
  session.status = 'used';
  recordTransition(mock, {
    resource: 'aadhaar-otp',
    id: session.referenceId,
    from: 'active',
    to: 'used',
    trigger,
    userId: user.id,
  });
  const aadhaar = {
    maskedNumber: maskAadhaar(session.aadhaarNumber),
    nameOnAadhaar: expectedName(user, kycRecord(state, user.id)),
    source: 'otp' as const,
  };
  return { ok: true, aadhaar: verifyStep(mock, user, 'aadhaar', aadhaar, trigger) };
}
