import { describe, expect, it } from 'vitest';
import { caller, mockServer } from '../support.js';

const mock = mockServer();
const KEY = 'b9a7c1d2-0e4f-4a5b-8c6d-7e8f9a0b1c2d';
const ASHA = { mobile: '9876543210' };

describe('fault injection', () => {
  it('an error fault answers its status in the route shape without running the handler', async () => {
    const { service, call } = mock.use();
    service.helpers.faults.inject({
      match: { method: 'POST', path: '/v2/users' },
      kind: 'error',
      status: 503,
    });
    const answer = await call('POST', '/v2/users', { body: ASHA });
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({
      error: 'Service Unavailable',
      message: 'Injected fault: the mock answered 503',
      code: 'SERVICE_UNAVAILABLE',
    });
    expect(Object.keys(service.state.users.byId)).toHaveLength(0);
    expect((await call('POST', '/v2/users', { body: ASHA })).status).toBe(201);
  });

  it('an error fault on a shape-B route uses shape B; a 429 fault looks like the rate-limit answer', async () => {
    const { service, call } = mock.use();
    const [user] = service.helpers.seed({ users: [ASHA] }).users;
    const path = '/v2/users/:userId/verify/mobile/send';
    service.helpers.faults.inject({ match: { path }, kind: 'error' });
    service.helpers.faults.inject({ match: { path }, kind: 'error', status: 429 });
    const first = await call('POST', `/v2/users/${user?.userId}/verify/mobile/send`);
    expect(first.status).toBe(500);
    expect(first.body).toMatchObject({ success: false, error: 'Internal Server Error' });
    expect(first.body).not.toHaveProperty('code');
    const second = await call('POST', `/v2/users/${user?.userId}/verify/mobile/send`);
    expect(second.status).toBe(429);
    expect(second.body).toMatchObject({ error: 'Rate Limit Exceeded', retryAfter: 1 });
  });

  it('drop-after-commit: the handler runs and commits, the caller sees a network error, a retry replays', async () => {
    const { service, call } = mock.use();
    service.helpers.faults.inject({ match: { path: '/v2/users' }, kind: 'drop-after-commit' });
    await expect(call('POST', '/v2/users', { body: ASHA, idempotencyKey: KEY })).rejects.toThrow(TypeError);
    const users = Object.values(service.state.users.byId);
    expect(users).toHaveLength(1);
    const retry = await call('POST', '/v2/users', { body: ASHA, idempotencyKey: KEY });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('Idempotent-Replayed')).toBe('true');
    expect((retry.body.data as { userId: string }).userId).toBe(users[0]?.id);
  });

  it('drop: a network error before any work', async () => {
    const { service, call } = mock.use();
    service.helpers.faults.inject({ kind: 'drop' });
    await expect(call('POST', '/v2/users', { body: ASHA })).rejects.toThrow(TypeError);
    expect(Object.keys(service.state.users.byId)).toHaveLength(0);
  });

  it('latency delays the answer (a caller with a shorter deadline gives up), then the request is served', async () => {
    const { service } = mock.use();
    service.helpers.faults.inject({ kind: 'latency', ms: 300 });
    const request = fetch(`${service.baseUrl}/v2/users`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${service.sandboxKey}` },
      body: JSON.stringify(ASHA),
      signal: AbortSignal.timeout(10),
    });
    await expect(request).rejects.toThrow(/abort|timeout/i);
    service.helpers.faults.inject({ kind: 'latency', ms: 20 });
    expect((await caller(service)('POST', '/v2/users', { body: { mobile: '9876543211' } })).status).toBe(201);
  });

  it('times, method and path decide which requests a fault hits; list and clear show and drop them', async () => {
    const { service, call } = mock.use();
    service.helpers.faults.inject({ match: { method: 'GET' }, kind: 'error', times: 2 });
    expect((await call('POST', '/v2/users', { body: ASHA })).status).toBe(201);
    expect((await call('GET', '/v2/x')).status).toBe(500);
    expect(service.helpers.faults.list()[0]?.remaining).toBe(1);
    expect((await call('GET', '/v2/x')).status).toBe(500);
    expect((await call('GET', '/v2/x')).status).toBe(404);
    service.helpers.faults.inject({ kind: 'drop', times: 5 });
    service.helpers.faults.clear();
    expect(service.helpers.faults.list()).toEqual([]);
    expect(() => service.helpers.faults.inject({ kind: 'latency' })).toThrow(/needs ms/);
    expect(() => service.helpers.faults.inject({ kind: 'error', status: 200 })).toThrow(
      /field status must be an HTTP status from 400 to 599/,
    );
  });
});
