import { describe, expect, it } from 'vitest';
import { upiOutcome } from '../../../src/index.js';
import { fail, makeClient, ok, only, route, useServer } from '../../support/msw.js';

// The penny drop and UPI: both match a name to the Aadhaar name at 70%.

useServer();
const client = makeClient();

describe('kyc.upi.verify: the three outcomes, all success: true', () => {
  it('verified (score 70 or more)', async () => {
    const answer = {
      verified: true,
      name: 'ASHA RAO',
      bankName: 'HDFC Bank',
      nameMatchScore: 92,
      message: 'UPI verified',
    };
    const seen = route('post', '/v2/users/:id/kyc/upi/verify', ok(answer));
    const result = await client.kyc.upi.verify('usr_1', { upiId: 'asha@okhdfcbank', deviceId: 'fp-1' });
    expect(only(seen, true)).toMatchObject({
      path: '/v2/users/usr_1/kyc/upi/verify',
      body: { upiId: 'asha@okhdfcbank', deviceId: 'fp-1' },
    });
    expect(result).toEqual(answer);
    expect(upiOutcome(result)).toBe('verified');
  });

  it('name mismatch (score under 70): verified false with the name and score', async () => {
    const answer = {
      verified: false,
      name: 'R K SINGH',
      bankName: 'SBI',
      nameMatchScore: 28,
      message: 'Name does not match',
    };
    route('post', '/v2/users/:id/kyc/upi/verify', ok(answer));
    const result = await client.kyc.upi.verify('usr_1', { upiId: '9876543210@ybl' });
    expect(result).toEqual(answer);
    expect(upiOutcome(result)).toBe('name_mismatch');
  });

  it('invalid VPA: verified false with name, bankName, nameMatchScore all null', async () => {
    const answer = {
      verified: false,
      name: null,
      bankName: null,
      nameMatchScore: null,
      message: 'Invalid VPA',
    };
    route('post', '/v2/users/:id/kyc/upi/verify', ok(answer));
    const result = await client.kyc.upi.verify('usr_1', { upiId: 'nobody@upi' });
    expect(result).toEqual(answer);
    expect(upiOutcome(result)).toBe('invalid_vpa');
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
