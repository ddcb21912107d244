// A refused OTP request changes nothing: the state after it, seeded PRNG included, is the state before, but for
// the rate-limit window every request counts against (spec 8).
import { describe, expect, it } from 'vitest';
import { createUser, mockServer, withoutRateWindows } from '../support.js';

const mock = mockServer();

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
