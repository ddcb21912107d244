// Aadhaar OTP, PAN and passport: the identity-document steps.
import { describe, expect, it } from 'vitest';
import { BadRequestError, UnprocessableEntityError } from '../../../src/index.js';
import { fail, makeClient, ok, only, route, useServer } from '../../support/msw.js';

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

describe('kyc.pan (assumed endpoint)', () => {
  it('verify: POSTs the PAN and reads the verified PAN with its name score', async () => {
    const answer = {
      verified: true,
      maskedNumber: 'XXXXX1234X',
      nameOnPan: 'ASHA RAO',
      nameMatchScore: 96,
      verifiedAt: '2024-01-15T10:36:00Z',
    };
    const seen = route('post', '/v2/users/:id/kyc/pan/verify', ok(answer));
    expect(await client.kyc.pan.verify('usr_1', { pan: 'ABCDE1234F' })).toEqual(answer);
    expect(only(seen, true)).toMatchObject({
      path: '/v2/users/usr_1/kyc/pan/verify',
      body: { pan: 'ABCDE1234F' },
    });
  });

  it('verify: reads NAME_MISMATCH with a top-level matchScore, and PAN_NOT_FOUND', async () => {
    route(
      'post',
      '/v2/users/:id/kyc/pan/verify',
      fail(422, {
        error: 'Unprocessable',
        message: 'Names do not match',
        code: 'NAME_MISMATCH',
        matchScore: 41,
      }),
      fail(404, { error: 'Not Found', message: 'PAN not in the database', code: 'PAN_NOT_FOUND' }),
    );
    const mismatch = await client.kyc.pan.verify('usr_1', { pan: 'ABCDE1234F' }).catch((e: unknown) => e);
    expect(mismatch).toBeInstanceOf(UnprocessableEntityError);
    expect(mismatch).toMatchObject({ code: 'NAME_MISMATCH', matchScore: 41 });
    await expect(client.kyc.pan.verify('usr_1', { pan: 'ABCDE1234F' })).rejects.toMatchObject({
      status: 404,
      code: 'PAN_NOT_FOUND',
    });
  });
});

describe('kyc.passport', () => {
  it('verify: POSTs file, fileName, deviceId and reads the extracted fields', async () => {
    const answer = {
      verified: true,
      givenName: 'ASHA',
      surname: 'RAO',
      nationality: 'IND',
      dob: '1990-01-01',
    };
    const seen = route('post', '/v2/users/:id/kyc/passport/verify', ok(answer));
    const file = Buffer.from('%PDF-1.4 passport').toString('base64');
    expect(
      await client.kyc.passport.verify('usr_1', { file, fileName: 'passport.pdf', deviceId: 'fp-1' }),
    ).toEqual(answer);
    expect(only(seen, true)).toMatchObject({
      path: '/v2/users/usr_1/kyc/passport/verify',
      body: { file, fileName: 'passport.pdf', deviceId: 'fp-1' },
    });
  });

  it('verify: reads Verification Failed and Already Verified (shape B)', async () => {
    route(
      'post',
      '/v2/users/:id/kyc/passport/verify',
      fail(422, { success: false, error: 'Verification Failed', message: 'Data could not be extracted' }),
      fail(400, { success: false, error: 'Already Verified', message: 'Passport already verified' }),
    );
    await expect(client.kyc.passport.verify('usr_1', { file: 'QUJD' })).rejects.toMatchObject({
      code: 'VERIFICATION_FAILED',
    });
    await expect(client.kyc.passport.verify('usr_1', { file: 'QUJD' })).rejects.toBeInstanceOf(
      BadRequestError,
    );
  });
});
