import { describe, expect, it } from 'vitest';
import { createUser, mockServerForTests, standaloneServer } from './support.js';

/**
 * The test helpers over HTTP (`/__mock/...`): a generic mapping onto `service.helpers`.
 */

const server = standaloneServer(['--start-time', '2025-03-01T09:00:00Z']);

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
    // To the server's own address: Prism 5.16's proxy never answers a JSON body it cannot parse.
    const notJson = await fetch(`${server.origin}/__mock/faults/inject`, {
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

describe('refused helper input, at a started server', () => {
  /**
   * Bad input to a helper or an endpoint is refused with a 400 that names what is wrong, and refusing
   * changes nothing: the state is byte-identical afterwards and the server keeps answering.
   */

  const server = mockServerForTests({
    port: 0,
    service: { seed: 'helper-input', startTime: '2025-03-01T09:00:00Z' },
  });

  const stateText = () => JSON.stringify(server.service.state);

  async function helper(path: string, body: unknown) {
    const response = await fetch(`${server.url}/__mock/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  async function api(method: string, path: string, body?: string) {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${server.service.sandboxKey}`, 'Content-Type': 'application/json' },
      body,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  describe('a refused helper changes nothing', () => {
    it('restore of something that is not a whole state is refused with what is missing, and the state stays', async () => {
      await api('POST', '/v2/users', JSON.stringify({ mobile: '9876543210' }));
      const before = stateText();
      const refused = await helper('restore', { version: 1 });
      expect(refused.status).toBe(400);
      expect(String(refused.body.message)).toMatch(/Cannot restore: not a mock state of version 1: seed: /);
      expect(String(refused.body.message)).toMatch(/accounts: /);
      expect(stateText()).toBe(before);
      const wrongSlice = JSON.parse(before);
      wrongSlice.transactions.byId = [];
      const alsoRefused = await helper('restore', wrongSlice);
      expect(alsoRefused.status).toBe(400);
      expect(String(alsoRefused.body.message)).toMatch(/transactions\.byId/);
      expect(stateText()).toBe(before);
      expect((await api('GET', '/v2/account')).status).toBe(200);
    });

    it('accounts/update with ipAllowList null, a wrong type or an unknown field is refused naming the field', async () => {
      const before = stateText();
      for (const [patch, field] of [
        [{ ipAllowList: null }, 'ipAllowList'],
        [{ limits: { rateLimit: 'many' } }, 'limits.rateLimit'],
        [{ status: 'suspended', developerFee: { enabled: true } }, 'developerFee.percent'],
        [{ webhookUrl: 'not a url' }, 'webhookUrl'],
        [{ colour: 'blue' }, 'colour'],
      ] as const) {
        const refused = await helper('accounts/update', patch);
        expect(refused.status, JSON.stringify(patch)).toBe(400);
        expect(String(refused.body.message)).toContain(field);
        expect(stateText()).toBe(before);
      }
      expect((await api('GET', '/v2/account')).status).toBe(200);
    });

    it('clock/advance by more than a Date can hold is refused and the clock does not move', async () => {
      const before = stateText();
      for (const duration of [1e16, '100000000000000000ms', 8.64e15]) {
        const refused = await helper('clock/advance', duration);
        expect(refused.status, String(duration)).toBe(400);
        expect(stateText()).toBe(before);
      }
      expect(server.service.clock.nowIso()).toBe('2025-03-01T09:00:00.000Z');
      expect((await helper('clock/advance', '1h')).status).toBe(200);
      expect(server.service.clock.nowIso()).toBe('2025-03-01T10:00:00.000Z');
    });
  });

  describe('a body that is not a JSON object', () => {
    it('answers 400 in the endpoint shape on the declaration endpoint (empty, null, array, text) and changes nothing', async () => {
      const created = await api('POST', '/v2/users', JSON.stringify({ mobile: '9876500001' }));
      const { userId } = created.body.data as { userId: string };
      const before = stateText();
      for (const body of ['', 'null', '[]', '"declared"', '42', '{']) {
        const answer = await api('POST', `/v2/users/${userId}/kyc/declaration`, body);
        expect(answer.status, JSON.stringify(body)).toBe(400);
        // Shape B: `error: Validation Error` with `details` naming the body.
        expect(answer.body).toMatchObject({ success: false, error: 'Validation Error' });
        expect(answer.body.details).toEqual([expect.objectContaining({ field: '(body)' })]);
      }
      const { http: _a, ...after } = server.service.state;
      const { http: _b, ...was } = JSON.parse(before);
      expect(JSON.parse(JSON.stringify(after))).toEqual(was);
    });

    it('answers 400 in shape A on a shape A endpoint', async () => {
      const answer = await api('POST', '/v2/users', 'null');
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ error: 'Bad Request', code: 'VALIDATION_ERROR' });
    });
  });
});
