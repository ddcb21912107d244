import { describe, expect, it } from 'vitest';
import { fail, route, useClient } from '../../support/msw.js';
import { postsAndReads, verifiedAadhaar } from './support.js';

// Aadhaar OTP, PAN and passport: the identity-document steps.

const client = useClient();

describe('kyc.aadhaar (assumed endpoints)', () => {
  it('sendOtp: POSTs aadhaarNumber and deviceId, reads referenceId, maskedAadhaar, expiresIn', async () => {
    await postsAndReads(
      'aadhaar/otp/send',
      { aadhaarNumber: '123412341234', deviceId: 'fp-1' },
      { referenceId: 'ref_1', maskedAadhaar: 'XXXX-XXXX-1234', expiresIn: 600, message: 'OTP sent' },
      (userId, params) => client.kyc.aadhaar.sendOtp(userId, params),
    );
  });

  it('verifyOtp: POSTs referenceId and otp, reads the verified Aadhaar', async () => {
    await postsAndReads(
      'aadhaar/otp/verify',
      { referenceId: 'ref_1', otp: '123456' },
      verifiedAadhaar,
      (userId, params) => client.kyc.aadhaar.verifyOtp(userId, params),
    );
  });

  it('verifyOtp: reads AADHAAR_OTP_EXPIRED', async () => {
    route(
      'post',
      '/v2/users/:id/kyc/aadhaar/otp/verify',
      fail(400, { error: 'Bad Request', message: 'OTP session expired', code: 'AADHAAR_OTP_EXPIRED' }),
    );
    await expect(
      client.kyc.aadhaar.verifyOtp('usr_1', { referenceId: 'ref_1', otp: '123456' }),
    ).rejects.toMatchObject({
      status: 400,
      code: 'AADHAAR_OTP_EXPIRED',
    });
  });
});
