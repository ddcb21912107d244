/**
 * Bad input to a helper or an endpoint is refused with a 400 that names what is wrong, and refusing
 * changes nothing: the state is byte-identical afterwards and the server keeps answering.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockServer, startMockServer } from '../../../mock/server/server.js';

let server: RunningMockServer;
beforeAll(async () => {
  server = await startMockServer({
    port: 0,
    service: { seed: 'helper-input', startTime: '2025-03-01T09:00:00Z' },
  });
});
afterAll(async () => {
  await server.close();
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
