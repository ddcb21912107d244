import { describe, expect, it } from 'vitest';
import { failure, kycServer } from './support.js';

const mock = kycServer();

describe('4.3, 7.4, 8: mobile and email OTP through the client', () => {
  it('4.3, 8: send gives expiresIn 600; the OTP confirms the mobile', async () => {
    const { service, client, userId } = await mock.use();
    expect(await client.users.mobile.sendOtp(userId)).toEqual({
      maskedMobile: '+91******3210',
      expiresIn: 600,
    });
    const { otp } = service.helpers.otp.read({ userId, channel: 'mobile' });
    expect(await client.users.mobile.confirm(userId, { otp })).toMatchObject({ mobileVerified: true });
    await failure(client.users.mobile.sendOtp(userId), {
      status: 400,
      shape: 'B',
      error: 'Already Verified',
    });
    await failure(client.users.mobile.confirm(userId, { otp }), {
      status: 400,
      shape: 'B',
      error: 'Already Verified',
    });
  });

  it('8, 7.4: a wrong OTP counts attemptsRemaining 2, 1, 0; then Max Attempts; a new OTP starts over', async () => {
    const { service, client, userId } = await mock.use();
    await client.users.mobile.sendOtp(userId);
    const right = service.helpers.otp.read({ userId, channel: 'mobile' }).otp;
    const wrong = right === '000000' ? '111111' : '000000';
    for (const remaining of [2, 1, 0]) {
      const error = await failure(client.users.mobile.confirm(userId, { otp: wrong }), {
        status: 400,
        shape: 'B',
        error: 'Invalid OTP',
      });
      expect(error.attemptsRemaining).toBe(remaining);
    }
    await failure(client.users.mobile.confirm(userId, { otp: right }), {
      status: 400,
      shape: 'B',
      error: 'Max Attempts',
    });
    await client.users.mobile.sendOtp(userId);
    const fresh = service.helpers.otp.read({ userId, channel: 'mobile' }).otp;
    expect((await client.users.mobile.confirm(userId, { otp: fresh })).mobileVerified).toBe(true);
  });

  it('8: a new OTP invalidates the earlier one; an OTP expires after 10 minutes', async () => {
    const { service, client, userId } = await mock.use();
    await client.users.mobile.sendOtp(userId);
    const old = service.helpers.otp.read({ userId, channel: 'mobile' }).otp;
    await client.users.mobile.sendOtp(userId);
    const current = service.helpers.otp.read({ userId, channel: 'mobile' }).otp;
    if (old !== current) {
      await failure(client.users.mobile.confirm(userId, { otp: old }), {
        status: 400,
        shape: 'B',
        error: 'Invalid OTP',
      });
    }
    await service.clock.advance('10m');
    await failure(client.users.mobile.confirm(userId, { otp: current }), {
      status: 400,
      shape: 'B',
      error: 'Invalid OTP',
    });
  });

  it('8, 7.4: a fourth mobile send inside 10 minutes is Too Many Requests (429)', async () => {
    const { client, userId } = await mock.use();
    for (let i = 0; i < 3; i++) await client.users.mobile.sendOtp(userId);
    await failure(client.users.mobile.sendOtp(userId), {
      status: 429,
      shape: 'B',
      error: 'Too Many Requests',
    });
  });

  it('8, 7.4: a fourth email send inside 10 minutes is Too Many Requests (429); the window then reopens', async () => {
    const { service, client, userId } = await mock.use();
    for (let i = 0; i < 3; i++) await client.users.email.sendOtp(userId);
    const error = await failure(client.users.email.sendOtp(userId), {
      status: 429,
      shape: 'B',
      error: 'Too Many Requests',
    });
    expect(error.retryAfter).toBe(600);
    await service.clock.advance('10m');
    expect((await client.users.email.sendOtp(userId)).expiresIn).toBe(600);
  });

  it('7.4: No OTP Found before any send; No Email without an address; Not Found for an unknown user', async () => {
    const { client, userId } = await mock.use({ mobile: '9876543211' });
    await failure(client.users.mobile.confirm(userId, { otp: '123456' }), {
      status: 400,
      shape: 'B',
      error: 'No OTP Found',
    });
    await failure(client.users.email.sendOtp(userId), { status: 400, shape: 'B', error: 'No Email' });
    await failure(client.users.mobile.sendOtp('usr_nope'), { status: 404, shape: 'B', error: 'Not Found' });
    await failure(client.users.email.sendOtp('usr_nope'), { status: 404, shape: 'B', error: 'Not Found' });
  });

  it('4.3 (assumed confirm): the email OTP confirms the email', async () => {
    const { service, client, userId } = await mock.use();
    await client.users.email.sendOtp(userId);
    const { otp } = service.helpers.otp.read({ userId, channel: 'email' });
    expect(await client.users.email.confirm(userId, { otp })).toMatchObject({ emailVerified: true });
  });
});
