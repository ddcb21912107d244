import { describe, expect, it } from 'vitest';
import { BadRequestError, NotFoundError, RateLimitError } from '../../../src/index.js';
import { fail, ok, only, route, useClient } from '../../support/msw.js';

const client = useClient();

describe('users.mobile', () => {
  it('sendOtp: POSTs with no body and reads maskedMobile, expiresIn and the message', async () => {
    const seen = route(
      'post',
      '/v2/users/:id/verify/mobile/send',
      ok({ maskedMobile: '+91******3210', expiresIn: 600 }, { message: 'OTP sent' }),
    );
    const { data, message } = await client.users.mobile.sendOtp('usr_1').withResponse();
    expect(only(seen, true)).toMatchObject({
      method: 'POST',
      path: '/v2/users/usr_1/verify/mobile/send',
      body: undefined,
      raw: '',
    });
    expect(data).toEqual({ maskedMobile: '+91******3210', expiresIn: 600 });
    expect(message).toBe('OTP sent');
  });

  it('sendOtp: reads Too Many Requests (shape B) as a RateLimitError', async () => {
    route(
      'post',
      '/v2/users/:id/verify/mobile/send',
      fail(429, { success: false, error: 'Too Many Requests', message: 'At most 3 OTPs per 10 minutes' }),
    );
    const error = await client.users.mobile.sendOtp('usr_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
  });

  it('confirm: POSTs the otp and reads mobileVerified and verifiedAt', async () => {
    const seen = route(
      'post',
      '/v2/users/:id/verify/mobile/confirm',
      ok({ mobileVerified: true, verifiedAt: '2024-01-15T10:31:00Z' }, { message: 'Verified' }),
    );
    const result = await client.users.mobile.confirm('usr_1', { otp: '123456' });
    expect(only(seen, true)).toMatchObject({
      path: '/v2/users/usr_1/verify/mobile/confirm',
      body: { otp: '123456' },
    });
    expect(result).toEqual({ mobileVerified: true, verifiedAt: '2024-01-15T10:31:00Z' });
  });

  it('confirm: reads Invalid OTP with attemptsRemaining, and No OTP Found / Max Attempts', async () => {
    route(
      'post',
      '/v2/users/:id/verify/mobile/confirm',
      fail(400, {
        success: false,
        error: 'Invalid OTP',
        message: 'Incorrect or expired OTP',
        attemptsRemaining: 2,
      }),
      fail(400, { success: false, error: 'Max Attempts', message: 'Request a new OTP' }),
      fail(400, { success: false, error: 'No OTP Found', message: 'Request a new one' }),
    );
    const invalid = await client.users.mobile.confirm('usr_1', { otp: '000000' }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(BadRequestError);
    expect(invalid).toMatchObject({ code: 'INVALID_OTP', attemptsRemaining: 2 });
    await expect(client.users.mobile.confirm('usr_1', { otp: '000000' })).rejects.toMatchObject({
      code: 'MAX_ATTEMPTS',
    });
    await expect(client.users.mobile.confirm('usr_1', { otp: '000000' })).rejects.toMatchObject({
      code: 'NO_OTP_FOUND',
    });
  });

  it('reads Not Found for an unknown user', async () => {
    route(
      'post',
      '/v2/users/:id/verify/mobile/send',
      fail(404, { success: false, error: 'Not Found', message: 'User not found' }),
    );
    await expect(client.users.mobile.sendOtp('usr_x')).rejects.toBeInstanceOf(NotFoundError);
  });
});
