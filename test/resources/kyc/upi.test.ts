import { describe, expect, it } from 'vitest';
import { upiOutcome } from '../../../src/index.js';
import { fail, route, useClient } from '../../support/msw.js';
import { postsAndReads } from './support.js';

// The penny drop and UPI: both match a name to the Aadhaar name at 70%.

const client = useClient();

describe('kyc.upi.verify: the three outcomes, all success: true', () => {
  it.each([
    {
      title: 'verified (score 70 or more)',
      params: { upiId: 'asha@okhdfcbank', deviceId: 'fp-1' },
      answer: {
        verified: true,
        name: 'ASHA RAO',
        bankName: 'HDFC Bank',
        nameMatchScore: 92,
        message: 'UPI verified',
      },
      outcome: 'verified',
    },
    {
      title: 'name mismatch (score under 70): verified false with the name and score',
      params: { upiId: '9876543210@ybl' },
      answer: {
        verified: false,
        name: 'R K SINGH',
        bankName: 'SBI',
        nameMatchScore: 28,
        message: 'Name does not match',
      },
      outcome: 'name_mismatch',
    },
    {
      title: 'invalid VPA: verified false with name, bankName, nameMatchScore all null',
      params: { upiId: 'nobody@upi' },
      answer: { verified: false, name: null, bankName: null, nameMatchScore: null, message: 'Invalid VPA' },
      outcome: 'invalid_vpa',
    },
  ])('$title', async ({ params, answer, outcome }) => {
    const result = await postsAndReads('upi/verify', params, answer, (userId, sent) =>
      client.kyc.upi.verify(userId, sent),
    );
    expect(upiOutcome(result)).toBe(outcome);
  });

  it('VALIDATION_ERROR and ALREADY_VERIFIED stay errors', async () => {
    route(
      'post',
      '/v2/users/:id/kyc/upi/verify',
      fail(400, { error: 'Bad Request', message: 'Bad UPI ID format', code: 'VALIDATION_ERROR' }),
      fail(409, { error: 'Conflict', message: 'UPI already verified', code: 'ALREADY_VERIFIED' }),
    );
    await expect(client.kyc.upi.verify('usr_1', { upiId: 'asha@upi' })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    await expect(client.kyc.upi.verify('usr_1', { upiId: 'asha@upi' })).rejects.toMatchObject({
      code: 'ALREADY_VERIFIED',
    });
  });
});
