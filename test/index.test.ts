// The same client methods, against the stateful mock (inr-payouts/mock) instead of hand-written handlers.
// Only the endpoints the mock serves so far are here; each new mock module adds its block.
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import './setup/strict-profile-context.js';
import { createMockService, type MockService } from '../mock/index.js';
import { mswHandlers } from '../mock/msw/index.js';
import { BadRequestError, ConflictError, PayoutClient } from '../src/index.js';

const server = setupServer();
let mock: MockService;
let client: PayoutClient;

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  mock = createMockService({ seed: 'client-against-mock' });
  server.use(...mswHandlers(mock));
  client = new PayoutClient({ apiKey: mock.sandboxKey, baseUrl: mock.baseUrl, maxRetries: 0 });
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('the profile the mock answers in', () => {
  it("is this run's project's: the strict project's mock sends none of the mock's own headers", async () => {
    const response = await fetch(`${mock.baseUrl}/v2/account`);
    expect(response.status).toBe(401);
    expect(response.headers.has('X-Mock-Explain')).toBe(inject('mockProfile') !== 'strict');
  });
});

describe('users against the mock', () => {
  it('creates a user (201) and refuses the same mobile again with USER_EXISTS', async () => {
    const { data: user, response } = await client.users
      .create({ mobile: '9876543210', email: 'asha@example.com', name: 'Asha Rao' })
      .withResponse();
    expect(response.status).toBe(201);
    expect(user).toMatchObject({ mobile: '+919876543210', mobileVerified: false, emailVerified: false });
    const again = await client.users.create({ mobile: '+919876543210' }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ConflictError);
    expect(again).toMatchObject({ code: 'USER_EXISTS' });
  });

  it('replays a create with the same Idempotency-Key', async () => {
    const first = await client.users
      .create({ mobile: '9876543211' }, { idempotencyKey: '79fd43ca-6327-4a52-8870-f9648bba34bb' })
      .withResponse();
    const second = await client.users
      .create({ mobile: '9876543211' }, { idempotencyKey: '79fd43ca-6327-4a52-8870-f9648bba34bb' })
      .withResponse();
    expect(second.data.userId).toBe(first.data.userId);
    expect(second.response.idempotentReplayed).toBe(true);
  });
});

describe('mobile and email OTP against the mock', () => {
  it('sends and confirms the mobile OTP; a wrong one reports attemptsRemaining', async () => {
    const { userId } = await client.users.create({ mobile: '9876543210' });
    const sent = await client.users.mobile.sendOtp(userId);
    expect(sent.expiresIn).toBe(600);
    const { otp } = mock.helpers.otp.read({ userId, channel: 'mobile' });
    const wrong = await client.users.mobile
      .confirm(userId, { otp: otp === '000000' ? '111111' : '000000' })
      .catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(BadRequestError);
    expect(wrong).toMatchObject({ code: 'INVALID_OTP', attemptsRemaining: 2 });
    const confirmed = await client.users.mobile.confirm(userId, { otp });
    expect(confirmed.mobileVerified).toBe(true);
  });

  it('sends and confirms the email OTP', async () => {
    const { userId } = await client.users.create({ mobile: '9876543212', email: 'ravi@example.com' });
    const sent = await client.users.email.sendOtp(userId);
    expect(sent.maskedEmail).toContain('@');
    const { otp } = mock.helpers.otp.read({ userId, channel: 'email' });
    expect((await client.users.email.confirm(userId, { otp })).emailVerified).toBe(true);
  });

  it('email send without an address on file is No Email', async () => {
    const { userId } = await client.users.create({ mobile: '9876543213' });
    await expect(client.users.email.sendOtp(userId)).rejects.toMatchObject({ code: 'NO_EMAIL' });
  });
});
