import { describe, expect, it } from 'vitest';
import { mockServer } from '../support.js';

const mock = mockServer();
const KEY = '6f1c7e2a-9a51-4f6e-8b1e-2f0d4c1b7a90';
const ASHA = { mobile: '9876543210', name: 'Asha Rao' };

describe('8 (Idempotency), 7.5: idempotent requests', () => {
  it('8: a new key answers 201; the same key and body answers 200 with the cached body and Idempotent-Replayed', async () => {
    const { service, call } = mock.use();
    const first = await call('POST', '/v2/users', { body: ASHA, idempotencyKey: KEY });
    expect(first.status).toBe(201);
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();
    await service.clock.advance('1h');
    const replay = await call('POST', '/v2/users', {
      body: { name: 'Asha Rao', mobile: '9876543210' },
      idempotencyKey: KEY,
    });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(Object.keys(service.state.users.byId)).toHaveLength(1);
    expect(Object.keys(service.state.webhooks.byId)).toHaveLength(1);
  });

  it('7.5: the same key with another body answers 409 IDEMPOTENCY_CONFLICT and takes no action', async () => {
    const { service, call } = mock.use();
    await call('POST', '/v2/users', { body: ASHA, idempotencyKey: KEY });
    const conflict = await call('POST', '/v2/users', { body: { mobile: '9876543211' }, idempotencyKey: KEY });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual({
      error: 'Idempotency Conflict',
      message: 'This Idempotency-Key was already used with a different request body; no action was taken',
      code: 'IDEMPOTENCY_CONFLICT',
    });
    expect(Object.values(service.state.users.byId).map((u) => u.mobile)).toEqual(['+919876543210']);
  });

  it('8: two concurrent requests with one key take effect once', async () => {
    const { service, call } = mock.use();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => call('POST', '/v2/users', { body: ASHA, idempotencyKey: KEY })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(Object.keys(service.state.users.byId)).toHaveLength(1);
  });

  it('8: a key lives 24 hours on the clock, then it is forgotten', async () => {
    const { service, call } = mock.use();
    await call('POST', '/v2/users', { body: ASHA, idempotencyKey: KEY });
    await service.clock.advance('23h59m59s');
    const late = await call('POST', '/v2/users', { body: { mobile: '9876543211' }, idempotencyKey: KEY });
    expect(late.status).toBe(409);
    await service.clock.advance('1s');
    expect(Object.keys(service.state.http.idempotency)).toHaveLength(0);
    const reused = await call('POST', '/v2/users', { body: { mobile: '9876543211' }, idempotencyKey: KEY });
    expect(reused.status).toBe(201);
  });

  it('8: an error is not cached, so the same key may try again once the cause is gone', async () => {
    const { service, call } = mock.use();
    const invalid = await call('POST', '/v2/users', { body: { mobile: '123' }, idempotencyKey: KEY });
    expect(invalid.status).toBe(400);
    expect(Object.keys(service.state.http.idempotency)).toHaveLength(0);
    expect(
      (await call('POST', '/v2/users', { body: { mobile: '9876543210' }, idempotencyKey: KEY })).status,
    ).toBe(201);
  });

  it('8: a key is scoped to the account and the path', async () => {
    const { service, call } = mock.use();
    const other = service.helpers.accounts.create();
    await call('POST', '/v2/users', { body: ASHA, idempotencyKey: KEY });
    expect(
      (await call('POST', '/v2/users', { body: ASHA, idempotencyKey: KEY, key: other.keys.sandbox })).status,
    ).toBe(201);
    const userId = Object.values(service.state.users.byId)[0]?.id;
    const send = await call('POST', `/v2/users/${userId}/verify/mobile/send`, { idempotencyKey: KEY });
    expect(send.status).toBe(200);
    expect(send.headers.get('Idempotent-Replayed')).toBeNull();
  });

  it('8: without a key, each request acts', async () => {
    const { call } = mock.use();
    expect((await call('POST', '/v2/users', { body: ASHA })).status).toBe(201);
    const again = await call('POST', '/v2/users', { body: ASHA });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('USER_EXISTS');
  });
});
