import { describe, expect, it } from 'vitest';
import { UnprocessableEntityError } from '../../../src/index.js';
import { fail, route, useClient } from '../../support/msw.js';
import { postsAndReads, verifiedPan } from './support.js';

// Aadhaar OTP, PAN and passport: the identity-document steps.

const client = useClient();

describe('kyc.pan (assumed endpoint)', () => {
  it('verify: POSTs the PAN and reads the verified PAN with its name score', async () => {
    await postsAndReads('pan/verify', { pan: 'ABCDE1234F' }, verifiedPan, (userId, params) =>
      client.kyc.pan.verify(userId, params),
    );
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
