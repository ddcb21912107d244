import { describe, expect, it } from 'vitest';
import { mockServer } from '../support.js';

const mock = mockServer();

describe('2.3, 4 (assumed POST /v2/users): user creation', () => {
  it('4.2 (201 for a creation): creates a user with the mobile stored as +91XXXXXXXXXX', async () => {
    const { call } = mock.use();
    const answer = await call('POST', '/v2/users', {
      body: { mobile: '9876543210', email: 'asha@example.com', name: 'Asha Rao', deviceId: 'fp-1' },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      success: true,
      message: 'User created',
      data: {
        userId: expect.stringMatching(/^usr_[0-9a-z]{16}$/),
        mobile: '+919876543210',
        email: 'asha@example.com',
        name: 'Asha Rao',
        mobileVerified: false,
        emailVerified: false,
        createdAt: '2025-01-01T00:00:00.000Z',
      },
    });
  });

  it('1.3: fields without a value are omitted, not null', async () => {
    const { call } = mock.use();
    const answer = await call('POST', '/v2/users', { body: { mobile: '+919876543210' } });
    expect(answer.body.data).not.toHaveProperty('email');
    expect(answer.body.data).not.toHaveProperty('name');
  });

  it('7.3: USER_EXISTS (409, shape A) for a mobile already registered, in any spelling', async () => {
    const { service, call } = mock.use();
    await call('POST', '/v2/users', { body: { mobile: '9876543210' } });
    const again = await call('POST', '/v2/users', {
      body: { mobile: '+919876543210', email: 'x@example.com' },
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      error: 'Conflict',
      message: 'Mobile number +919876543210 is already registered',
      code: 'USER_EXISTS',
    });
    expect(Object.keys(service.state.users.byId)).toHaveLength(1);
  });

  it('7.3: a mobile is unique within an account, not across accounts', async () => {
    const { service, call } = mock.use();
    const other = service.helpers.accounts.create({ name: 'Other partner' });
    await call('POST', '/v2/users', { body: { mobile: '9876543210' } });
    const answer = await call('POST', '/v2/users', {
      key: other.keys.sandbox,
      body: { mobile: '9876543210' },
    });
    expect(answer.status).toBe(201);
  });

  it('7.2 (400 invalid parameters): a body breaking the shared schema answers 400 VALIDATION_ERROR with details', async () => {
    const { service, call } = mock.use();
    const answer = await call('POST', '/v2/users', { body: { mobile: '12345', email: 'not-an-email' } });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'Bad Request', code: 'VALIDATION_ERROR' });
    expect(answer.body.details).toEqual([
      {
        field: 'mobile',
        message: 'mobile must be an Indian mobile number: 10 digits starting with 6 to 9, +91 optional',
      },
      { field: 'email', message: 'email must be an email address' },
    ]);
    expect(answer.body.message).toMatch(/^Invalid request: mobile must be an Indian mobile number/);
    expect(Object.keys(service.state.users.byId)).toHaveLength(0);
  });

  it('7.2: a body that is not JSON, or no body, answers 400', async () => {
    const { service } = mock.use();
    const res = await fetch(`${service.baseUrl}/v2/users`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${service.sandboxKey}` },
      body: '{mobile:',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: '(body)', message: 'the request body must be valid JSON' }],
    });
    const empty = await fetch(`${service.baseUrl}/v2/users`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${service.sandboxKey}` },
    });
    expect(empty.status).toBe(400);
  });

  it('6.1, 6.2, 2.11: user.created is recorded as a pending webhook event with the envelope, and its delivery attempted at once', async () => {
    const { service, call } = mock.use();
    const answer = await call('POST', '/v2/users', { body: { mobile: '9876543210' } });
    const events = Object.values(service.state.webhooks.byId);
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event).toMatchObject({
      eventType: 'user.created',
      status: 'pending',
      attempts: 0,
      createdAt: '2025-01-01T00:00:00.000Z',
      envelope: {
        id: event?.id,
        event: 'user.created',
        timestamp: '2025-01-01T00:00:00.000Z',
        partnerId: service.accountId,
        data: {
          userId: (answer.body.data as { userId: string }).userId,
          mobile: '+919876543210',
          createdAt: '2025-01-01T00:00:00.000Z',
        },
      },
    });
    expect(event?.id).toMatch(/^evt_/);
    // Its first attempt fell due at once and ran before the answer went back: without a webhook URL the event
    // stays pending, for a manual retry, and nothing is left scheduled.
    expect(service.journal.entries({ type: 'timer' })).toEqual([
      expect.objectContaining({ kind: 'webhook.deliver', at: '2025-01-01T00:00:00.000Z' }),
    ]);
    expect(service.helpers.clock.pending()).toEqual([]);
  });
});
