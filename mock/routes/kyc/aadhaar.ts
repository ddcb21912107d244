/**
 * Aadhaar OTP (assumed, docs/assumptions.md): send gives a `referenceId` whose 6-digit OTP lives 600 s;
 * verify checks it (3 attempts) and records the Aadhaar with the user's name on record. Shape A.
 */
import { ENDPOINTS } from '../../../src/endpoints/index.js';
import { OTP_TTL_SECONDS } from '../../../src/schemas/common.js';
import { MockApiError } from '../../engine/errors.js';
import { defineModule } from '../../engine/module.js';
import { route } from '../../engine/route.js';
import { MAX_OTP_ATTEMPTS } from '../../machines/otp.js';
import { sendAadhaarOtp, verifyAadhaarOtp } from '../../operations/kyc/aadhaar.js';
import { maskAadhaar, peekKycRecord } from '../../operations/kyc.js';
import { alreadyVerified, requireUser } from '../shared.js';

const send = route(ENDPOINTS['kyc.aadhaar.sendOtp'], (ctx) => {
  const user = requireUser(ctx, ctx.params.userId);
  if (peekKycRecord(ctx.state, user.id).aadhaar) throw alreadyVerified('Aadhaar', user.id);
  const { referenceId } = sendAadhaarOtp(ctx.state, user.id, ctx.body.aadhaarNumber);
  const maskedAadhaar = maskAadhaar(ctx.body.aadhaarNumber);
  return {
    data: {
      referenceId,
      maskedAadhaar,
      expiresIn: OTP_TTL_SECONDS,
      message: 'OTP sent to the mobile number linked to the Aadhaar',
    },
    message: 'OTP sent',
  };
});

const verify = route(ENDPOINTS['kyc.aadhaar.verifyOtp'], (ctx) => {
  const user = requireUser(ctx, ctx.params.userId);
  const record = peekKycRecord(ctx.state, user.id);
  if (record.aadhaar) throw alreadyVerified('Aadhaar', user.id);
  const session = ctx.state.kyc.aadhaarOtps[ctx.body.referenceId];
  if (!session || session.userId !== user.id) {
    throw new MockApiError(404, {
      error: 'Not Found',
      message: `No Aadhaar OTP session ${ctx.body.referenceId} for user ${user.id}; send one with POST /kyc/aadhaar/otp/send`,
      code: 'SESSION_NOT_FOUND',
    });
  }
  if (
    session.status !== 'active' ||
    session.attempts >= MAX_OTP_ATTEMPTS ||
    ctx.now >= Date.parse(session.expiresAt)
  ) {
    throw new MockApiError(400, {
      error: 'Bad Request',
      message:
        'The Aadhaar OTP session expired or is used up; request a new OTP with POST /kyc/aadhaar/otp/send',
      code: 'AADHAAR_OTP_EXPIRED',
    });
  }
  const result = verifyAadhaarOtp(ctx.mock, user, session, ctx.body.otp);
  if (!result.ok) {
    throw new MockApiError(400, {
      error: 'Bad Request',
      message: 'The Aadhaar OTP is incorrect',
      code: 'INVALID_OTP',
      attemptsRemaining: result.attemptsRemaining,
    });
  }
  const { source: _source, ...aadhaar } = result.aadhaar;
  return { data: { verified: true, ...aadhaar }, message: 'Aadhaar verified' };
});

/** The Aadhaar OTP routes. */
export const aadhaar = defineModule({ name: 'kyc.aadhaar', routes: [send, verify] });
