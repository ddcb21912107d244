/**
 * The standalone server as a separate process, driven with plain `fetch` (no SDK): start-up, the API over
 * HTTP, the 404 and 500 shapes, dropped connections, the allow-list from the socket, clean shutdown.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type RunningServer, startServer } from './support.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer(['--seed', 'server-tests']);
});
afterAll(async () => {
  await server.stop();
});

describe('inr-payouts-mock over HTTP', () => {
  it('5.1: prints the base URL, a sandbox key (pk_sandbox_) and the webhook secret, and the key authenticates', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.key).toMatch(/^pk_sandbox_/);
    expect(server.secret.length).toBeGreaterThan(10);
    const unauthenticated = await server.call(
      'POST',
      '/v2/users',
      { mobile: '9876500000' },
      { Authorization: '' },
    );
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.body).toEqual({ error: 'Unauthorized', message: 'Invalid or missing API key' });
  });

  it('4.3: a user is created, sent a mobile OTP, and verified with the OTP read through /__mock', async () => {
    const userId = await createUser(server);
    const sent = await server.call('POST', `/v2/users/${userId}/verify/mobile/send`);
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({ expiresIn: 600 });
    const reading = await server.helper('otp/read', { userId, channel: 'mobile' });
    const { otp } = reading.body.data as { otp: string };
    expect(otp).toMatch(/^\d{6}$/);
    const confirmed = await server.call('POST', `/v2/users/${userId}/verify/mobile/confirm`, { otp });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data).toMatchObject({ mobileVerified: true });
  });

  it('7.2: an unknown path answers 404 in shape A, inside /v2 (after auth) and outside it', async () => {
    const outside = await fetch(`${server.url}/nothing/here`);
    expect(outside.status).toBe(404);
    expect(await outside.json()).toMatchObject({ error: 'Not Found', code: 'NOT_FOUND' });
    const inside = await server.call('GET', '/v2/no-such-endpoint');
    expect(inside.status).toBe(404);
    expect(inside.body).toMatchObject({ error: 'Not Found', code: 'NOT_FOUND' });
    expect(inside.body.message).toContain('/v2/no-such-endpoint');
  });

  it('a method and path no endpoint has answers a 404 saying so, unlike a missing record of a real endpoint', async () => {
    // The spec has no GET /v2/users/{userId}: the answer must not read as a user lost (after a restart, say).
    const unknown = await server.callOrigin('GET', '/v2/users/usr_x');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('application/json');
    expect(Object.keys(unknown.body).sort()).toEqual(['code', 'error', 'message']);
    expect(unknown.body).toMatchObject({ error: 'Not Found', code: 'NOT_FOUND' });
    expect(unknown.body.message).toBe(
      'No endpoint GET /v2/users/usr_x: the API has no such method and path (this is not a missing record); openapi.json lists every endpoint (GET /openapi.json on npx inr-payouts-mock, inr-payouts/openapi.json in the package)',
    );
    const explained = unknown.headers.get('x-mock-explain') ?? '';
    expect(explained).toMatch(/^NOT_FOUND: no endpoint of the API is GET \/v2\/users\/usr_x \(spec 4\)\. /);
    expect(explained).toContain('Change: call a method and path the API has');
    expect(explained).not.toContain('created');
    // A real endpoint with a record it does not have: its own code and the advice to use an id that exists.
    const missing = await server.callOrigin('GET', '/v2/transactions/txn_missing');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: 'Not Found', code: 'TRANSACTION_NOT_FOUND' });
    expect(missing.headers.get('x-mock-explain')).toContain('use a transactionId this account created');
    // Outside /v2 too, the answer points at the endpoint list.
    const outside = await fetch(`${server.origin}/v1/users/usr_x`);
    expect(outside.status).toBe(404);
    expect((await outside.json()).message).toBe(
      'No endpoint GET /v1/users/usr_x: the API is under /v2 (GET /openapi.json lists its endpoints), the test helpers under /__mock',
    );
  });

  it('7.2: a handler that throws answers 500 in shape A and the server keeps serving', async () => {
    const headers = { 'Idempotency-Key': '0b9e4f43-7d1f-4a52-8f8e-5f0b7f3c9a10' };
    expect((await server.call('POST', '/v2/users', { mobile: '9876500001' }, headers)).status).toBe(201);
    const saved = (await fetch(`${server.url}/__mock/snapshot`).then((r) => r.json())).data;
    // A kept answer without its response makes the replay throw while reading it.
    const broken = structuredClone(saved);
    for (const record of Object.values(broken.http.idempotency) as { key: string; response?: unknown }[]) {
      if (record.key === headers['Idempotency-Key']) delete record.response;
    }
    expect((await server.helper('restore', broken)).status).toBe(200);
    const failed = await server.call('POST', '/v2/users', { mobile: '9876500001' }, headers);
    expect(failed.status).toBe(500);
    expect(failed.body).toMatchObject({ error: 'Internal Server Error', code: 'INTERNAL_ERROR' });
    expect(String(failed.body.message)).toMatch(/failed while handling/);
    expect((await server.helper('restore', saved)).status).toBe(200);
    expect((await server.call('POST', '/v2/users', { mobile: '9876500099' })).status).toBe(201);
  });

  it('8: a drop fault closes the connection without an answer; the next request is served', async () => {
    await server.helper('faults/inject', { kind: 'drop', match: { method: 'POST', path: '/v2/users' } });
    await expect(server.callOrigin('POST', '/v2/users', { mobile: '9876500002' })).rejects.toThrow();
    expect((await server.call('POST', '/v2/users', { mobile: '9876500002' })).status).toBe(201);
  });

  it('8: a drop after commit keeps the work, and the same Idempotency-Key replays it', async () => {
    await server.helper('faults/inject', { kind: 'drop-after-commit', match: { path: '/v2/users' } });
    const headers = { 'Idempotency-Key': '4f7c1c1e-5a43-4c1e-9d84-0a4e1b6f7a21' };
    const body = { mobile: '9876500003' };
    await expect(server.callOrigin('POST', '/v2/users', body, headers)).rejects.toThrow();
    const replay = await server.call('POST', '/v2/users', body, headers);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });

  it('5.5: the allow-list sees the socket address, and a client cannot claim another one', async () => {
    await server.helper('accounts/update', { ipAllowList: { enabled: true, addresses: ['203.0.113.7'] } });
    const refused = await server.call(
      'POST',
      '/v2/users',
      { mobile: '9876500004' },
      { 'x-mock-client-ip': '203.0.113.7' },
    );
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('127.0.0.1');
    await server.helper('accounts/update', { ipAllowList: { enabled: true, addresses: ['127.0.0.1'] } });
    expect((await server.call('POST', '/v2/users', { mobile: '9876500004' })).status).toBe(201);
    await server.helper('accounts/update', { ipAllowList: { enabled: false, addresses: [] } });
  });

  it('a request body over 32 MB answers 413 in shape A', async () => {
    const answer = await fetch(`${server.origin}/v2/users`, {
      method: 'POST',
      body: new Uint8Array(33 * 1024 * 1024),
    });
    expect(answer.status).toBe(413);
    expect(await answer.json()).toMatchObject({ error: 'Payload Too Large', code: 'PAYLOAD_TOO_LARGE' });
  });
});

describe('shutdown', () => {
  it('at real time, says at start that a flow takes minutes and how to move faster', async () => {
    const realtime = await startServer(['--speed', 'realtime']);
    try {
      const lines = realtime.output().split('\n');
      expect(lines).toContain(
        "  speed:           at real time a payout takes minutes (a deposit's confirmations alone up to 4 min 16 s on polygon): start with --speed 60 for a virtual minute a second, or move the clock with POST /__mock/clock/advance",
      );
      // The line sits above the helpers line, which stays last.
      expect(lines.findIndex((line) => line.startsWith('  speed:'))).toBeLessThan(
        lines.findIndex((line) => line.startsWith('  test helpers:')),
      );
    } finally {
      await realtime.stop();
    }
    // A manual clock (this file's server) moves only when told: no such line.
    expect(server.output()).not.toContain('speed:');
    expect(server.output()).toContain('(manual)');
  });

  it('stops cleanly on SIGINT and on SIGTERM (exit code 0)', async () => {
    const a = await startServer();
    const b = await startServer();
    expect(await a.stop('SIGINT')).toBe(0);
    expect(await b.stop('SIGTERM')).toBe(0);
    expect(a.output()).toContain('stopped (SIGINT)');
  });
});
