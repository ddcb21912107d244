import { describe, expect, it } from 'vitest';
import { createMockService } from '../../../mock/index.js';
import { createUser, mockServer } from '../support.js';

const mock = mockServer();
const USER = { mobile: '9876543210' };

describe('5: authentication', () => {
  it('5.4: a missing key answers 401 Unauthorized', async () => {
    const { call } = mock.use();
    const answer = await call('POST', '/v2/users', { key: null, body: USER });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ error: 'Unauthorized', message: 'Invalid or missing API key' });
  });

  it('5.4: an unknown key, another scheme or a malformed header answers 401', async () => {
    const { service, call } = mock.use();
    for (const headers of [
      { Authorization: 'Bearer pk_sandbox_not_a_real_key' },
      { Authorization: `Basic ${service.sandboxKey}` },
      { Authorization: service.sandboxKey },
    ]) {
      const answer = await call('POST', '/v2/users', { key: null, headers, body: USER });
      expect(answer.status).toBe(401);
      expect(answer.body.error).toBe('Unauthorized');
    }
    expect(Object.keys(service.state.users.byId)).toHaveLength(0);
  });

  it('5.1, 5.2: the sandbox key and the live key both authenticate the account', async () => {
    const { service, call } = mock.use();
    await createUser(call, { mobile: '9876543210' });
    const live = await call('POST', '/v2/users', { key: service.liveKey, body: { mobile: '9876543211' } });
    expect(live.status).toBe(201);
  });

  it('5.4: a 401 applies to unknown paths too, before the 404', async () => {
    const { call } = mock.use();
    expect((await call('GET', '/v2/nowhere', { key: null })).status).toBe(401);
    const answer = await call('GET', '/v2/nowhere');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({
      error: 'Not Found',
      message:
        'No endpoint GET /v2/nowhere: the API has no such method and path (this is not a missing record); openapi.json lists every endpoint (GET /openapi.json on npx inr-payouts-mock, inr-payouts/openapi.json in the package)',
      code: 'NOT_FOUND',
    });
  });
});

describe('5.5: IP allow-list', () => {
  it('5.5: with the allow-list enabled, an address not on it answers 403 and nothing happens', async () => {
    const { service, call } = mock.use({
      account: { ipAllowList: { enabled: true, addresses: ['203.0.113.7'] } },
    });
    const answer = await call('POST', '/v2/users', { body: USER });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({
      error: 'Forbidden',
      message: "IP address 127.0.0.1 is not on this account's allow-list",
    });
    expect(answer.headers.get('X-RateLimit-Limit')).toBe('600');
    expect(Object.keys(service.state.users.byId)).toHaveLength(0);
  });

  it('5.5: a listed address (x-mock-client-ip, set by the standalone server) is let in', async () => {
    const { call } = mock.use({ account: { ipAllowList: { enabled: true, addresses: ['203.0.113.7'] } } });
    const answer = await call('POST', '/v2/users', {
      body: USER,
      headers: { 'x-mock-client-ip': '203.0.113.7' },
    });
    expect(answer.status).toBe(201);
  });

  it('5.5: a disabled allow-list lets every address in; the helper can switch it on', async () => {
    const { service, call } = mock.use({ account: { ipAllowList: { enabled: false, addresses: [] } } });
    expect(
      (await call('POST', '/v2/users', { body: USER, headers: { 'x-mock-client-ip': '198.51.100.1' } }))
        .status,
    ).toBe(201);
    service.helpers.accounts.update({ ipAllowList: { enabled: true, addresses: ['127.0.0.1'] } });
    expect((await call('GET', '/v2/x', { headers: { 'x-mock-client-ip': '198.51.100.1' } })).status).toBe(
      403,
    );
    expect((await call('GET', '/v2/x')).status).toBe(404);
  });
});

/**
 * The standalone server runs due work after every request (`clock.runDue`). A run with nothing to do is not a
 * step of the recording, so a long-running server's bundle holds its requests, not one idle run per request;
 * a run that has work is a step, and its work runs.
 */

describe('API keys', () => {
  it('a key that authenticated stops authenticating once its account is gone', async () => {
    const mock = createMockService();
    const before = mock.helpers.snapshot();
    const other = mock.helpers.accounts.create({ name: 'Other partner' });
    const account = (key: string) =>
      mock.fetch(`${mock.baseUrl}/v2/account`, { headers: { authorization: `Bearer ${key}` } });
    expect((await account(other.keys.sandbox)).status).toBe(200);
    expect((await account(other.keys.sandbox)).status).toBe(200);
    mock.helpers.restore(before);
    expect((await account(other.keys.sandbox)).status).toBe(401);
    expect((await account(mock.sandboxKey)).status).toBe(200);
  });
});
