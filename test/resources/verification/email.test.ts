import { describe, expect, it } from 'vitest';
import { fail, ok, only, route, useClient } from '../../support/msw.js';

const client = useClient();

describe('users.email', () => {
  it('sendOtp: POSTs with no body and reads maskedEmail and expiresIn', async () => {
    const seen = route(
      'post',
      '/v2/users/:id/verify/email/send',
      ok({ maskedEmail: 'a***@example.com', expiresIn: 600 }),
    );
    expect(await client.users.email.sendOtp('usr_1')).toEqual({
      maskedEmail: 'a***@example.com',
      expiresIn: 600,
    });
    expect(only(seen, true)).toMatchObject({ path: '/v2/users/usr_1/verify/email/send', body: undefined });
  });

  it('sendOtp: reads No Email', async () => {
    route(
      'post',
      '/v2/users/:id/verify/email/send',
      fail(400, { success: false, error: 'No Email', message: 'User has no email address' }),
    );
    await expect(client.users.email.sendOtp('usr_1')).rejects.toMatchObject({
      code: 'NO_EMAIL',
      status: 400,
    });
  });

  it('confirm (assumed): POSTs the otp and reads emailVerified', async () => {
    const seen = route(
      'post',
      '/v2/users/:id/verify/email/confirm',
      ok({ emailVerified: true, verifiedAt: '2024-01-15T10:32:00Z' }),
    );
    expect(await client.users.email.confirm('usr_1', { otp: '654321' })).toEqual({
      emailVerified: true,
      verifiedAt: '2024-01-15T10:32:00Z',
    });
    expect(only(seen, true)).toMatchObject({
      path: '/v2/users/usr_1/verify/email/confirm',
      body: { otp: '654321' },
    });
  });
});
