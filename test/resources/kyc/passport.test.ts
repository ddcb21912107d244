import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../../../src/index.js';
import { fail, makeClient, ok, only, route, useServer } from '../../support/msw.js';

// Aadhaar OTP, PAN and passport: the identity-document steps.

useServer();
const client = makeClient();

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
