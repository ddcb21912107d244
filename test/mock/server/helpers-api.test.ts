/**
 * The test helpers over HTTP (`/__mock/...`): a generic mapping onto `service.helpers`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type RunningServer, startServer } from './support.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer(['--start-time', '2025-03-01T09:00:00Z']);
});
afterAll(async () => {
  await server.stop();
});

describe('/__mock', () => {
  it('GET /__mock lists every helper group and action', async () => {
    const answer = await fetch(`${server.url}/__mock`).then((r) => r.json());
    expect(answer.data.helpers).toMatchObject({
      '': expect.arrayContaining(['reset', 'seed', 'snapshot', 'restore']),
      clock: expect.arrayContaining(['now', 'advance']),
      faults: expect.arrayContaining(['inject', 'list', 'clear']),
      otp: ['read'],
    });
    const read = answer.data.described.find((h: { name: string }) => h.name === 'otp.read');
    expect(read).toMatchObject({
      path: '/__mock/otp/read',
      arguments: [{ type: 'object', required: ['userId', 'channel'] }],
    });
  });

  it('lists only what it serves: every listed helper answers, and the in-process-only useFetch is neither listed nor served', async () => {
    const answer = await fetch(`${server.url}/__mock`).then((r) => r.json());
    const listed = Object.entries(answer.data.helpers as Record<string, string[]>).flatMap(
      ([group, actions]) => actions.map((action) => (group ? `${group}.${action}` : action)),
    );
    expect(answer.data.helpers.webhooks).toEqual(['sign', 'trigger', 'captured', 'events', 'settle']);
    expect(listed).not.toContain('webhooks.useFetch');
    // The two halves of the listing name the same helpers.
    expect(listed.sort()).toEqual(answer.data.described.map((h: { name: string }) => h.name).sort());
    for (const method of ['POST', 'GET']) {
      const refused = await fetch(`${server.url}/__mock/webhooks/useFetch`, {
        method,
        ...(method === 'POST' ? { headers: { 'Content-Type': 'application/json' }, body: '{}' } : {}),
      });
      expect(refused.status).toBe(404);
      expect(refused.headers.get('content-type')).toContain('application/json');
      expect(refused.headers.get('cache-control')).toBe('no-store');
      const body = await refused.json();
      expect(body).toMatchObject({ error: 'Not Found', code: 'IN_PROCESS_ONLY' });
      expect(body.message).toMatch(
        /^helpers\.webhooks\.useFetch takes a function, so it exists in-process only/,
      );
      // It says what does the same over HTTP.
      expect(body.message).toContain('POST /__mock/accounts/update with { "webhookUrl"');
      expect(body.message).toContain('--webhook-url');
    }
    // A helper that does not exist at all is still told apart.
    expect((await server.helper('webhooks/nothing')).body).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('8: the OTP read over GET with a query expires after 10 minutes of clock advanced over HTTP', async () => {
    await server.helper('reset');
    const userId = await createUser(server);
    await server.call('POST', `/v2/users/${userId}/verify/mobile/send`);
    const read = await fetch(`${server.url}/__mock/otp/read?userId=${userId}&channel=mobile`).then((r) =>
      r.json(),
    );
    expect(read.data).toMatchObject({ expired: false, attemptsRemaining: 3 });
    const advanced = await server.helper('clock/advance', '10m');
    expect(advanced.body.data).toMatchObject({ now: '2025-03-01T09:10:00.000Z' });
    // `{ args: [...] }` spreads arguments; advancing 0 ms changes nothing.
    expect((await server.helper('clock/advance', { args: [0] })).status).toBe(200);
    const late = await server.call('POST', `/v2/users/${userId}/verify/mobile/confirm`, {
      otp: read.data.otp,
    });
    expect(late.status).toBe(400);
    expect(late.body).toMatchObject({ success: false, error: 'Invalid OTP' });
  });

  it('a transition the state does not allow answers 409 with the reason; an unknown user 404', async () => {
    await server.helper('reset');
    const userId = await createUser(server);
    expect((await server.helper('verification/complete', { userId, channel: 'mobile' })).status).toBe(200);
    const again = await server.helper('verification/complete', { userId, channel: 'mobile' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'Conflict', code: 'TRANSITION_REFUSED', state: 'verified' });
    expect(String(again.body.message)).toMatch(/allowed only from unverified/);
    const missing = await server.helper('otp/read', { userId: 'usr_nobody', channel: 'mobile' });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: 'Not Found', code: 'NOT_FOUND' });
  });

  it('an unknown helper answers 404, a bad argument or body 400, both in shape A', async () => {
    const unknown = await server.helper('nothing/here');
    expect(unknown.status).toBe(404);
    expect(String(unknown.body.message)).toContain('GET /__mock lists');
    expect((await server.helper('__proto__/constructor')).status).toBe(404);
    const bad = await server.helper('faults/inject', { kind: 'meteor' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'Bad Request', code: 'INVALID_HELPER_ARGUMENT', field: 'kind' });
    // No body where one is required: the field is named, no JavaScript internals leak.
    const empty = await server.helper('kyc/aadhaarOtp');
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({
      message: 'helpers.kyc.aadhaarOtp: the argument is required',
      field: '',
    });
    const noField = await server.helper('kyc/aadhaarOtp', {});
    expect(noField.body).toMatchObject({ field: 'referenceId', code: 'INVALID_HELPER_ARGUMENT' });
    expect(String(noField.body.message)).not.toMatch(/destructure|undefined/);
    // A function argument cannot cross HTTP: in-process only.
    expect((await server.helper('webhooks/useFetch')).body).toMatchObject({ code: 'IN_PROCESS_ONLY' });
    const notJson = await fetch(`${server.url}/__mock/faults/inject`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{kind',
    });
    expect(notJson.status).toBe(400);
  });

  it('faults over HTTP: an injected 503 answers in shape A, once, and faults can be listed and cleared', async () => {
    await server.helper('faults/inject', { kind: 'error', status: 503, match: { path: '/v2/users' } });
    await server.helper('faults/inject', { kind: 'latency', ms: 1, match: { path: '/v2/nowhere' } });
    const failed = await server.call('POST', '/v2/users', { mobile: '9876511111' });
    expect(failed.status).toBe(503);
    expect(failed.body).toMatchObject({ error: 'Service Unavailable', code: 'SERVICE_UNAVAILABLE' });
    expect((await server.helper('faults/list')).body.data).toHaveLength(1);
    await server.helper('faults/clear');
    expect((await server.helper('faults/list')).body.data).toEqual([]);
  });

  it('snapshot, reset and restore round-trip the whole state; seed loads fixtures', async () => {
    await server.helper('reset');
    const seeded = await server.helper('seed', { users: [{ mobile: '9876522222', mobileVerified: true }] });
    const [user] = (seeded.body.data as { users: { userId: string; mobileVerified: boolean }[] }).users;
    expect(user?.mobileVerified).toBe(true);
    const snapshot = await fetch(`${server.url}/__mock/snapshot`).then((r) => r.json());
    await server.helper('reset');
    expect((await server.call('POST', '/v2/users', { mobile: '9876522222' })).status).toBe(201);
    await server.helper('reset');
    expect((await server.helper('restore', snapshot.data)).status).toBe(200);
    const again = await server.call('POST', '/v2/users', { mobile: '9876522222' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'USER_EXISTS' });
  });
});
