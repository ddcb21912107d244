/**
 * Aadhaar OTP (assumed, docs/assumptions.md): send gives a `referenceId` whose 6-digit OTP lives 600 s;
 * verify checks it (3 attempts) and records the Aadhaar with the user's name on record. Shape A.
 */
import { OTP_LENGTH, OTP_TTL_SECONDS } from '../../../src/schemas/common.js';
import { AadhaarOtpSendRequest, AadhaarOtpVerifyRequest } from '../../../src/schemas/kyc/aadhaar.js';
import { MockApiError } from '../../engine/errors.js';
import { nextId, randomDigits } from '../../engine/ids.js';
import { defineModule } from '../../engine/module.js';
import { route } from '../../engine/route.js';
import { MAX_OTP_ATTEMPTS } from '../../machines/otp.js';
import { applyAggregate, expectedName, kycRecord, maskAadhaar } from '../../operations/kyc.js';
import { recordStep, recordTransition } from '../../operations/transitions.js';
import { requireUser } from '../shared.js';

const alreadyVerified = (userId: string) =>
  new MockApiError(409, {
    error: 'Conflict',
    message: `The Aadhaar of user ${userId} is already verified`,
    code: 'ALREADY_VERIFIED',
  });

const send = route(
  'POST',
  '/v2/users/:userId/kyc/aadhaar/otp/send',
  (ctx) => {
    const user = requireUser(ctx, ctx.params.userId);
    if (kycRecord(ctx.state, user.id).aadhaar) throw alreadyVerified(user.id);
    const referenceId = nextId(ctx.state, 'aref');
    ctx.state.kyc.aadhaarOtps[referenceId] = {
      referenceId,
      userId: user.id,
      aadhaarNumber: ctx.body.aadhaarNumber,
      code: randomDigits(ctx.state, OTP_LENGTH),
      attempts: 0,
      status: 'active',
      expiresAt: new Date(ctx.now + OTP_TTL_SECONDS * 1000).toISOString(),
    };
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
  },
  { bodySchema: AadhaarOtpSendRequest },
);

const verify = route(
  'POST',
  '/v2/users/:userId/kyc/aadhaar/otp/verify',
  (ctx) => {
    const user = requireUser(ctx, ctx.params.userId);
    const record = kycRecord(ctx.state, user.id);
    if (record.aadhaar) throw alreadyVerified(user.id);
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
    if (ctx.body.otp !== session.code) {
      session.attempts += 1;
      throw new MockApiError(400, {
        error: 'Bad Request',
        message: 'The Aadhaar OTP is incorrect',
        code: 'INVALID_OTP',
        attemptsRemaining: MAX_OTP_ATTEMPTS - session.attempts,
      });
    }
    session.status = 'used';
    recordTransition(ctx.state, {
      resource: 'aadhaar-otp',
      id: session.referenceId,
      from: 'active',
      to: 'used',
      trigger: 'POST /kyc/aadhaar/otp/verify',
      userId: user.id,
    });
    record.aadhaar = {
      maskedNumber: maskAadhaar(session.aadhaarNumber),
      nameOnAadhaar: expectedName(user, record),
      verifiedAt: ctx.nowIso,
      source: 'otp',
    };
    recordStep(ctx.state, user.id, 'aadhaar', 'POST /kyc/aadhaar/otp/verify');
    applyAggregate(ctx.state, user, record, { type: 'recompute' });
    const { source: _source, ...aadhaar } = record.aadhaar;
    return { data: { verified: true, ...aadhaar }, message: 'Aadhaar verified' };
  },
  { bodySchema: AadhaarOtpVerifyRequest },
);

/** The Aadhaar OTP routes. */
export const aadhaar = defineModule({ name: 'kyc.aadhaar', routes: [send, verify] });
