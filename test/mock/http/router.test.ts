/**
 * What routing answers itself, in-process (the standalone server's twin is test/mock/server/routing.test.ts):
 * idempotency scoped to the resolved endpoint, a malformed path 400, a wrong method 405 with Allow, HEAD as
 * GET without the body, and paths that are not the API.
 */
import { describe, expect, it } from 'vitest';
import { createUser, mockServer } from '../support.js';

const mock = mockServer();

describe('routing', () => {
  it('8: one key and body sent to spellings of one endpoint replays one answer; /V2 is not the API', async () => {
    const { service, call } = mock.use();
    const userId = await createUser(call);
    const init = (path: string) =>
      call('POST', path, { body: { redirectUrl: 'https://partner.test/back' }, idempotencyKey: 'dl-1' });
    const first = await init(`/v2/users/${userId}/kyc/digilocker/init`);
    expect(first.status).toBe(200);
    const variants = [
      `/v2/users/${userId}/kyc/digilocker/init/`,
      `/v2/users/%${userId.charCodeAt(0).toString(16)}${userId.slice(1)}/kyc/digilocker/init`,
    ];
    for (const path of variants) {
      const replay = await init(path);
      expect(replay.status).toBe(200);
      expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
      expect(replay.body).toEqual(first.body);
    }
    const upper = new Request(`${service.baseUrl}/V2/users/${userId}/kyc/digilocker/init`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${service.sandboxKey}`, 'Idempotency-Key': 'dl-1' },
      body: JSON.stringify({ redirectUrl: 'https://partner.test/back' }),
    });
    expect(await service.dispatch(upper)).toBeUndefined();
    expect(Object.keys(service.state.kyc.digilockerSessions)).toHaveLength(1);
  });

  it('a malformed percent-encoding in the path answers 400 in shape A and changes nothing', async () => {
    const { service, call } = mock.use();
    for (const path of ['/v2/transactions/%ZZ', '/v2/users/%E2%82/kyc/status', '/v2/%']) {
      const answer = await call('GET', path);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ error: 'Bad Request', code: 'MALFORMED_PATH' });
      expect(answer.body.message).toContain(path);
    }
    expect((await call('POST', '/v2/users/%ZZ/verify/mobile/send')).status).toBe(400);
    expect(Object.keys(service.state.users.byId)).toHaveLength(0);
  });

  it('an unsupported method on a known path answers 405 with Allow; an unknown path stays 404', async () => {
    const { call } = mock.use();
    const wrong = await call('DELETE', '/v2/users');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('Allow')).toBe('POST');
    expect(wrong.body).toEqual({
      error: 'Method Not Allowed',
      message: 'DELETE is not served on /v2/users: use POST',
      code: 'METHOD_NOT_ALLOWED',
    });
    expect((await call('POST', '/v2/account')).headers.get('Allow')).toBe('GET, HEAD');
    expect((await call('OPTIONS', '/v2/webhooks/evt_1/retry')).headers.get('Allow')).toBe('POST');
    expect((await call('GET', '/v2/nothing-here')).status).toBe(404);
    // A static path beside a parameter one: GET still reaches the transaction lookup.
    expect((await call('GET', '/v2/transactions/prefunded')).body).toMatchObject({
      code: 'TRANSACTION_NOT_FOUND',
    });
  });

  it('HEAD answers as GET: same status and headers, the length of the GET body, no body', async () => {
    const { service } = mock.use();
    const request = (method: string) =>
      fetch(`${service.baseUrl}/v2/account`, {
        method,
        headers: { Authorization: `Bearer ${service.sandboxKey}` },
      });
    const get = await request('GET');
    const getBody = await get.text();
    const head = await request('HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(getBody)));
    expect(head.headers.get('x-ratelimit-limit')).toBe('600');
    expect(await head.text()).toBe('');
    const unauthorised = await fetch(`${service.baseUrl}/v2/account`, { method: 'HEAD' });
    expect(unauthorised.status).toBe(401);
    const wrong = await service.dispatch(new Request(`${service.baseUrl}/v2/users`, { method: 'HEAD' }));
    expect(wrong?.status).toBe(405);
    expect(wrong?.headers.get('Allow')).toBe('POST');
    expect(wrong?.body).toBeNull();
  });
});
