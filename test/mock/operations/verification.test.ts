import { describe, expect, it } from 'vitest';
import { MockHelperError, MockTransitionError } from '../../../mock/index.js';
import { createUser, mockServer, withoutRateWindows } from '../support.js';
import { failure, kycServer } from './kyc/support.js';

const mock = mockServer();

/** A shape-B refusal (7.2): `status`, and exactly the body `{ success: false, ...body }`. */
function expectRefusal(
  answer: { status: number; body: unknown },
  status: number,
  body: Record<string, unknown>,
) {
  expect(answer.status).toBe(status);
  expect(answer.body).toEqual({ success: false, ...body });
}

async function setup(body?: Record<string, unknown>, baseUrl?: string) {
  const { service, call } = mock.use({ baseUrl });
  const userId = await createUser(call, body);
  const path = (channel: 'mobile' | 'email', step: 'send' | 'confirm') =>
    `/v2/users/${userId}/verify/${channel}/${step}`;
  const send = (channel: 'mobile' | 'email' = 'mobile') => call('POST', path(channel, 'send'));
  const confirm = (otp: string, channel: 'mobile' | 'email' = 'mobile') =>
    call('POST', path(channel, 'confirm'), { body: { otp } });
  const read = (channel: 'mobile' | 'email' = 'mobile') => service.helpers.otp.read({ userId, channel }).otp;
  const wrong = (channel: 'mobile' | 'email' = 'mobile') =>
    read(channel) === '000000' ? '111111' : '000000';
  return { service, call, userId, send, confirm, read, wrong };
}

describe('4.3: mobile OTP', () => {
  it('4.3, 8: send answers the masked mobile and expiresIn 600; the OTP has 6 digits', async () => {
    const { send, read } = await setup();
    const answer = await send();
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      success: true,
      message: 'OTP sent to mobile number',
      data: { maskedMobile: '+91******3210', expiresIn: 600 },
    });
    expect(read()).toMatch(/^\d{6}$/);
  });

  it('4.3: confirm with the OTP verifies the mobile', async () => {
    const { service, userId, send, confirm, read } = await setup();
    await send();
    await service.clock.advance('1m');
    const answer = await confirm(read());
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      success: true,
      message: 'Mobile number verified',
      data: { mobileVerified: true, verifiedAt: '2025-01-01T00:01:00.000Z' },
    });
    expect(service.state.users.byId[userId]).toMatchObject({ mobileVerified: true, emailVerified: false });
  });

  it("7.4: Not Found (404, shape B) for an unknown user or another account's user, on send and confirm", async () => {
    const { service, call, userId } = await setup();
    const other = service.helpers.accounts.create();
    for (const [path, key] of [
      ['/v2/users/usr_nope/verify/mobile/send', service.sandboxKey],
      [`/v2/users/${userId}/verify/mobile/send`, other.keys.sandbox],
      ['/v2/users/usr_nope/verify/mobile/confirm', service.sandboxKey],
    ] as const) {
      const answer = await call('POST', path, { key, body: { otp: '123456' } });
      expectRefusal(answer, 404, {
        error: 'Not Found',
        message: expect.stringMatching(/^User .* not found$/),
      });
    }
  });

  it('7.2, 7.4: Already Verified (400, shape B) on send and confirm once the mobile is verified', async () => {
    const { send, confirm, read } = await setup();
    await send();
    const otp = read();
    await confirm(otp);
    for (const answer of [await send(), await confirm(otp)]) {
      expectRefusal(answer, 400, {
        error: 'Already Verified',
        message: expect.stringContaining('already verified'),
      });
    }
  });

  it('8: at most 3 OTP sends per 10 minutes, then 429 Too Many Requests (shape B); the window slides on the clock', async () => {
    const { service, send } = await setup();
    expect((await send()).status).toBe(200);
    await service.clock.advance('2m');
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(200);
    const limited = await send();
    expectRefusal(limited, 429, {
      error: 'Too Many Requests',
      message: 'At most 3 OTPs per 10 minutes; try again in 480 seconds',
      retryAfter: 480,
    });
    await service.clock.advance('7m59s');
    expect((await send()).status).toBe(429);
    await service.clock.advance('1s');
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(429);
  });

  it('7.4, 8: a wrong OTP answers Invalid OTP with attemptsRemaining 2, 1, 0; then Max Attempts even for the right one', async () => {
    const { send, confirm, read, wrong } = await setup();
    await send();
    for (const remaining of [2, 1, 0]) {
      const answer = await confirm(wrong());
      expectRefusal(answer, 400, {
        error: 'Invalid OTP',
        message: 'The OTP is incorrect or expired',
        attemptsRemaining: remaining,
      });
    }
    const max = await confirm(read());
    expectRefusal(max, 400, {
      error: 'Max Attempts',
      message: 'This OTP has had 3 failed attempts; request a new OTP',
    });
    await send();
    expect((await confirm(read())).status).toBe(200);
  });

  it('8: an OTP is valid 10 minutes; after that it answers Invalid OTP (incorrect or expired)', async () => {
    const { service, send, confirm, read } = await setup();
    await send();
    const otp = read();
    await service.clock.advance('9m59s');
    expect(
      service.helpers.otp.read({ userId: Object.keys(service.state.users.byId)[0] ?? '', channel: 'mobile' })
        .expired,
    ).toBe(false);
    await service.clock.advance('1s');
    const answer = await confirm(otp);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'Invalid OTP', attemptsRemaining: 2 });
  });

  it('8: a new OTP invalidates the earlier one and restores 3 attempts', async () => {
    const { service, userId, send, confirm, read } = await setup();
    await send();
    const first = read();
    await confirm(first === '000000' ? '111111' : '000000');
    await send();
    const second = read();
    expect(second).not.toBe(first);
    expect(service.helpers.otp.read({ userId, channel: 'mobile' })).toMatchObject({
      attempts: 0,
      attemptsRemaining: 3,
    });
    expect((await confirm(first)).body).toMatchObject({ error: 'Invalid OTP', attemptsRemaining: 2 });
    expect((await confirm(second)).status).toBe(200);
  });

  it('7.4: No OTP Found (400, shape B) when none was sent', async () => {
    const { confirm } = await setup();
    const answer = await confirm('123456');
    expectRefusal(answer, 400, {
      error: 'No OTP Found',
      message: 'No active OTP for this user; request a new one',
    });
  });

  it('4.3, 7.2: an OTP that is not 6 digits answers 400 Validation Error in shape B', async () => {
    const { send, confirm } = await setup();
    await send();
    const answer = await confirm('12345');
    expectRefusal(answer, 400, {
      error: 'Validation Error',
      message: 'Invalid request: otp must be exactly 6 digits',
      details: [{ field: 'otp', message: 'otp must be exactly 6 digits' }],
    });
  });
});

describe('4.3: email OTP (confirm assumed, mirroring mobile)', () => {
  it('4.3: send answers the masked email; confirm verifies the email', async () => {
    const { service, userId, send, confirm, read } = await setup();
    const sent = await send('email');
    expect(sent.body).toEqual({
      success: true,
      message: 'OTP sent to email',
      data: { maskedEmail: 'a***@example.com', expiresIn: 600 },
    });
    const answer = await confirm(read('email'), 'email');
    expect(answer.body).toEqual({
      success: true,
      message: 'Email verified',
      data: { emailVerified: true, verifiedAt: '2025-01-01T00:00:00.000Z' },
    });
    expect(service.state.users.byId[userId]).toMatchObject({ emailVerified: true, mobileVerified: false });
    expect((await send('email')).body).toMatchObject({ error: 'Already Verified' });
  });

  it('7.4: No Email (400, shape B) on send and confirm when the user has no email', async () => {
    const { send, confirm } = await setup({ mobile: '9876543210' });
    for (const answer of [await send('email'), await confirm('123456', 'email')]) {
      expectRefusal(answer, 400, {
        error: 'No Email',
        message: expect.stringContaining('no email address'),
      });
    }
  });

  it('8: the email channel has its own send window and attempts, apart from mobile', async () => {
    const { send, confirm, wrong } = await setup();
    for (let i = 0; i < 3; i++) await send('mobile');
    expect((await send('mobile')).status).toBe(429);
    expect((await send('email')).status).toBe(200);
    await confirm(wrong('email'), 'email');
    expect((await confirm(wrong('email'), 'email')).body).toMatchObject({ attemptsRemaining: 1 });
    expect((await confirm('000000', 'mobile')).body).toMatchObject({
      error: 'Invalid OTP',
      attemptsRemaining: 2,
    });
  });
});

describe('test helpers for OTP', () => {
  it('otp.read shows the last OTP with its timing; refuses when none was sent or the user is unknown', async () => {
    const { service, userId, send } = await setup();
    expect(() => service.helpers.otp.read({ userId, channel: 'mobile' })).toThrow(
      /No mobile OTP has been sent/,
    );
    expect(() => service.helpers.otp.read({ userId: 'usr_nope', channel: 'mobile' })).toThrow(
      MockHelperError,
    );
    await send();
    expect(service.helpers.otp.read({ userId, channel: 'mobile' })).toEqual({
      userId,
      channel: 'mobile',
      otp: expect.stringMatching(/^\d{6}$/),
      sentAt: '2025-01-01T00:00:00.000Z',
      expiresAt: '2025-01-01T00:10:00.000Z',
      expired: false,
      attempts: 0,
      attemptsRemaining: 3,
      status: 'active',
    });
  });

  it('the same seed sends the same OTPs', async () => {
    const a = await setup(undefined, 'https://a.test');
    const b = await setup(undefined, 'https://b.test');
    await a.send();
    await b.send();
    expect(a.read()).toBe(b.read());
  });

  it('verification.complete verifies without an OTP and refuses a transition that does not fit', async () => {
    const { service, userId, send } = await setup({ mobile: '9876543210' });
    expect(service.helpers.verification.complete({ userId, channel: 'mobile' })).toEqual({
      verifiedAt: '2025-01-01T00:00:00.000Z',
    });
    expect((await send('mobile')).body).toMatchObject({ error: 'Already Verified' });
    const again = () => service.helpers.verification.complete({ userId, channel: 'mobile' });
    expect(again).toThrow(MockTransitionError);
    expect(again).toThrow(
      `Cannot complete the mobile verification of ${userId}: it is verified, and this is allowed only from unverified.`,
    );
    expect(() => service.helpers.verification.complete({ userId, channel: 'email' })).toThrow(
      /no email address/,
    );
  });
});

describe('mobile and email OTP, through the client', () => {
  const kyc = kycServer(mock);

  describe('4.3, 7.4, 8: mobile and email OTP through the client', () => {
    it('4.3, 8: send gives expiresIn 600; the OTP confirms the mobile', async () => {
      const { service, client, userId } = await kyc.use();
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
      const { service, client, userId } = await kyc.use();
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
      const { service, client, userId } = await kyc.use();
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
      const { client, userId } = await kyc.use();
      for (let i = 0; i < 3; i++) await client.users.mobile.sendOtp(userId);
      await failure(client.users.mobile.sendOtp(userId), {
        status: 429,
        shape: 'B',
        error: 'Too Many Requests',
      });
    });

    it('8, 7.4: a fourth email send inside 10 minutes is Too Many Requests (429); the window then reopens', async () => {
      const { service, client, userId } = await kyc.use();
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
      const { client, userId } = await kyc.use({ mobile: '9876543211' });
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
      const { service, client, userId } = await kyc.use();
      await client.users.email.sendOtp(userId);
      const { otp } = service.helpers.otp.read({ userId, channel: 'email' });
      expect(await client.users.email.confirm(userId, { otp })).toMatchObject({ emailVerified: true });
    });
  });
});

describe('a refused OTP request, on its own mock', () => {
  // A refused OTP request changes nothing: the state after it, seeded PRNG included, is the state before, but for
  // the rate-limit window every request counts against (spec 8).

  describe('a refused OTP request', () => {
    it('8: a fourth send within 10 minutes (429) draws no code and keeps the channel as it was', async () => {
      const { service, call } = mock.use();
      const userId = await createUser(call);
      for (let i = 0; i < 3; i++) {
        expect((await call('POST', `/v2/users/${userId}/verify/mobile/send`)).status).toBe(200);
      }
      const before = service.helpers.snapshot();

      const answer = await call('POST', `/v2/users/${userId}/verify/mobile/send`);

      expect(answer.status).toBe(429);
      expect(answer.body).toMatchObject({ success: false, error: 'Too Many Requests' });
      expect(withoutRateWindows(service.helpers.snapshot())).toEqual(withoutRateWindows(before));
    });

    it('7.4: a confirm with no OTP sent (No OTP Found) stores no OTP record for the user', async () => {
      const { service, call } = mock.use();
      const userId = await createUser(call);
      const before = service.helpers.snapshot();

      const answer = await call('POST', `/v2/users/${userId}/verify/mobile/confirm`, {
        body: { otp: '123456' },
      });

      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ success: false, error: 'No OTP Found' });
      expect(withoutRateWindows(service.helpers.snapshot())).toEqual(withoutRateWindows(before));
    });
  });
});
