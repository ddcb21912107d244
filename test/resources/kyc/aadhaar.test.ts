import { describe, expect, it } from 'vitest';
import { fail, makeClient, ok, only, route, useServer } from '../../support/msw.js';

// Aadhaar OTP, PAN and passport: the identity-document steps.

useServer();
const client = makeClient();

describe('kyc.aadhaar (assumed endpoints)', () => {
  it('sendOtp: POSTs aadhaarNumber and deviceId, reads referenceId, maskedAadhaar, expiresIn', async () => {
    const answer = {
      referenceId: 'ref_1',
      maskedAadhaar: 'XXXX-XXXX-1234',
      expiresIn: 600,
      message: 'OTP sent',
    };
    const seen = route('post', '/v2/users/:id/kyc/aadhaar/otp/send', ok(answer));
    const result = await client.kyc.aadhaar.sendOtp('usr_1', {
      aadhaarNumber: '123412341234',
      deviceId: 'fp-1',
    });
    expect(only(seen, true)).toMatchObject({
      path: '/v2/users/usr_1/kyc/aadhaar/otp/send',
      body: { aadhaarNumber: '123412341234', deviceId: 'fp-1' },
    });
    expect(result).toEqual(answer);
  });

  it('verifyOtp: POSTs referenceId and otp, reads the verified Aadhaar', async () => {
    const answer = {
      verified: true,
      maskedNumber: 'XXXX-XXXX-1234',
      nameOnAadhaar: 'Asha Rao',
      verifiedAt: '2024-01-15T10:35:00Z',
    };
    const seen = route('post', '/v2/users/:id/kyc/aadhaar/otp/verify', ok(answer));
    expect(await client.kyc.aadhaar.verifyOtp('usr_1', { referenceId: 'ref_1', otp: '123456' })).toEqual(
      answer,
    );
    expect(only(seen, true)).toMatchObject({
      path: '/v2/users/usr_1/kyc/aadhaar/otp/verify',
      body: { referenceId: 'ref_1', otp: '123456' },
    });
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
