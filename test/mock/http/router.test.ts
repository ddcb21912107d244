/**
 * What routing answers itself, in-process and on the standalone server: idempotency scoped to the resolved
 * endpoint, a malformed path 400, a wrong method 405 with Allow (on the server also the methods fetch cannot send,
 * TRACE, TRACK and CONNECT, sent over node:http), HEAD as GET without the body, and paths that are not the API.
 * On the server, requests outside the contract (malformed targets, undeclared methods, HEAD) go to
 * `server.origin`: a proxy in front would answer them.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser as createUserOver, type RunningServer, startServer } from '../server/support.js';
import { createUser, mockServer } from '../support.js';

/**
 * The document-locker init path of `userId` spelled two other ways that resolve to the same endpoint: with a
 * trailing slash, and with the ID's first character percent-encoded.
 */
const otherSpellings = (userId: string) => [
  `/v2/users/${userId}/kyc/digilocker/init/`,
  `/v2/users/%${userId.charCodeAt(0).toString(16)}${userId.slice(1)}/kyc/digilocker/init`,
];

describe('routing', () => {
  // The MSW server lives in this block only: the standalone server's block below sends real requests.
  const mock = mockServer();

  it('8: one key and body sent to spellings of one endpoint replays one answer; /V2 is not the API', async () => {
    const { service, call } = mock.use();
    const userId = await createUser(call);
    const init = (path: string) =>
      call('POST', path, { body: { redirectUrl: 'https://partner.test/back' }, idempotencyKey: 'dl-1' });
    const first = await init(`/v2/users/${userId}/kyc/digilocker/init`);
    expect(first.status).toBe(200);
    for (const path of otherSpellings(userId)) {
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

let server: RunningServer;

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request over node:http, which sends any method and the path exactly as given. */
function raw(method: string, path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(server.origin, { method, path, headers });
    const collect = (res: import('node:http').IncomingMessage, socket?: import('node:stream').Duplex) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => {
        socket?.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
    };
    req.on('response', (res) => collect(res));
    req.on('connect', (res, socket) => {
      let body = '';
      socket.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      socket.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('routing on the standalone server', () => {
  beforeAll(async () => {
    server = await startServer();
  }, 20_000);
  afterAll(() => server.stop());

  it('8: one key and body sent to spellings of one endpoint replays one answer; /V2 answers 404', async () => {
    const userId = await createUserOver(server);
    const init = (path: string) =>
      server.call('POST', path, { redirectUrl: 'https://partner.test/back' }, { 'Idempotency-Key': 'dl-1' });
    const first = await init(`/v2/users/${userId}/kyc/digilocker/init`);
    expect(first.status).toBe(200);
    for (const path of otherSpellings(userId)) {
      const replay = await init(path);
      expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
      expect(replay.body).toEqual(first.body);
    }
    const upper = await init(`/V2/users/${userId}/kyc/digilocker/init`);
    expect(upper.status).toBe(404);
    const sessions = await server.helper('snapshot');
    const state = sessions.body.data as { kyc: { digilockerSessions: Record<string, unknown> } };
    expect(Object.keys(state.kyc.digilockerSessions)).toHaveLength(1);
  });

  it('a malformed percent-encoding in the path answers 400 in shape A, never 500', async () => {
    for (const path of ['/v2/transactions/%ZZ', '/v2/%', '/__uploads/%ZZ']) {
      const answer = await server.callOrigin('GET', path);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ error: 'Bad Request', code: 'MALFORMED_PATH' });
    }
  });

  it('an unsupported method answers 405 with Allow, TRACE, TRACK and CONNECT included', async () => {
    const wrong = await server.callOrigin('DELETE', '/v2/users');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('Allow')).toBe('POST');
    expect(wrong.body).toMatchObject({ error: 'Method Not Allowed', code: 'METHOD_NOT_ALLOWED' });
    const trace = await raw('TRACE', '/v2/account');
    expect(trace.status).toBe(405);
    expect(trace.headers.allow).toBe('GET, HEAD');
    expect(JSON.parse(trace.body)).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });
    // TRACK is not a method node:http parses: its parser answers 400 before the mock sees the request.
    expect((await raw('TRACK', '/v2/account')).status).toBe(400);
    expect((await raw('TRACE', '/__mock/reset')).headers.allow).toBe('GET, HEAD, POST');
    expect((await raw('TRACE', '/nowhere')).status).toBe(404);
    const connect = await raw('CONNECT', '/v2/account');
    expect(connect.status).toBe(405);
    expect(connect.headers.allow).toBe('GET, HEAD, POST');
    // The server is still serving.
    expect((await server.call('GET', '/v2/account')).status).toBe(200);
  });

  it('a request target is routed in the form the URL parser gives it: dot segments resolved, \\ as /', async () => {
    const headers = { Authorization: `Bearer ${server.key}` };
    const plain = await raw('GET', '/v2/account', headers);
    expect(plain.status).toBe(200);
    for (const path of ['/v2/x/../account', '/v2/./account', '/v2/%2E/account', '/v2\\account']) {
      const answer = await raw('GET', path, headers);
      expect(answer.status, path).toBe(200);
      expect(JSON.parse(answer.body), path).toEqual(JSON.parse(plain.body));
    }
    // The test helpers are found under their resolved path too, behind the same local-only guard.
    for (const path of ['/v2/../__mock/journal?type=request', '/x/%2e%2E/__mock\\journal?type=request']) {
      const journal = await raw('GET', path);
      expect(journal.status, path).toBe(200);
      const paths = (JSON.parse(journal.body).data as { path: string }[]).slice(-4).map((e) => e.path);
      expect(paths, path).toEqual(Array(4).fill('/v2/account'));
    }
  });

  it('HEAD answers as GET: same status and headers, the length of the GET body, no body', async () => {
    const get = await raw('GET', '/v2/nothing');
    expect(get.status).toBe(401);
    const headers = { Authorization: `Bearer ${server.key}` };
    const full = await fetch(`${server.origin}/v2/account`, { headers });
    const text = await full.text();
    const head = await fetch(`${server.origin}/v2/account`, { method: 'HEAD', headers });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/json');
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect(await head.text()).toBe('');
  });
});
