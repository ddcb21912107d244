import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../../../src/index.js';
import { fail, route, useClient } from '../../support/msw.js';
import { postsAndReads } from './support.js';

// Aadhaar OTP, PAN and passport: the identity-document steps.

const client = useClient();

describe('kyc.passport', () => {
  it('verify: POSTs file, fileName, deviceId and reads the extracted fields', async () => {
    const file = Buffer.from('%PDF-1.4 passport').toString('base64');
    await postsAndReads(
      'passport/verify',
      { file, fileName: 'passport.pdf', deviceId: 'fp-1' },
      { verified: true, givenName: 'ASHA', surname: 'RAO', nationality: 'IND', dob: '1990-01-01' },
      (userId, params) => client.kyc.passport.verify(userId, params),
    );
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
