import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pipelineModule } from '../../../mock/http/pipeline-module.js';
import { createMockService, type MockBundle } from '../../../mock/index.js';
import { modules } from '../../../mock/routes/index.js';
import { parseCli } from '../../../mock/server/cli.js';
import { listHelpers } from '../../../mock/server/helpers-api.js';
import { type RunningMockServer, startMockServer } from '../../../mock/server/server.js';
import {
  createUser,
  mockServerForTests,
  rawRequest,
  standaloneServer,
  startServer,
  stateWithoutRateWindows,
} from './support.js';

/**
 * The standalone server as a separate process, driven with plain `fetch` (no SDK): start-up, the API over
 * HTTP, the 404 and 500 shapes, dropped connections, the allow-list from the socket, clean shutdown.
 */

const server = standaloneServer(['--seed', 'server-tests']);

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

describe('arbitrary requests', () => {
  /**
   * Property: whatever arrives at the standalone server (arbitrary paths, methods, headers and bodies, and
   * arbitrary arguments to every helper), it answers without a 5xx and without dying, and a refused request
   * (4xx) leaves the state as it was (apart from the rate-limit window, which counts every authenticated
   * request). The router-level cases (unsupported methods, HEAD, malformed percent-encoding) are in
   * `fuzz-router.test.ts`.
   */

  const server = mockServerForTests({
    port: 0,
    service: { seed: 'fuzz', startTime: '2025-03-01T09:00:00Z' },
  });
  let userId: string;
  beforeAll(async () => {
    const { data } = (await (
      await fetch(`${server.url}/__mock/users/seedVerified`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ mobile: '9876543210' }),
      })
    ).json()) as { data: { userId: string } };
    userId = data.userId;
  });

  const stateText = () => stateWithoutRateWindows(server.service.state);

  const routePaths = [pipelineModule, ...modules].flatMap((m) => m.routes.map((def) => def.path));
  const segment = fc.oneof(
    fc.constantFrom(
      '__proto__',
      'constructor',
      'toString',
      '..',
      '.',
      '',
      'v2',
      'users',
      '%2F',
      '%00',
      'null',
    ),
    fc.string({ maxLength: 12 }).map(encodeURIComponent),
  );
  const path = fc.oneof(
    // A route of the table with arbitrary (well-encoded) parameters, the first one sometimes a real user.
    fc
      .tuple(fc.constantFrom(...routePaths), fc.array(segment, { minLength: 4, maxLength: 4 }), fc.boolean())
      .map(([route, values, realUser]) => {
        let i = 0;
        return route.replace(/:(\w+)/g, () => {
          i += 1;
          return i === 1 && realUser ? userId : (values[i % 4] ?? '');
        });
      }),
    fc.array(segment, { maxLength: 6 }).map((parts) => `/${parts.join('/')}`),
    fc.array(segment, { maxLength: 4 }).map((parts) => `/v2/${parts.join('/')}`),
    fc.array(segment, { maxLength: 3 }).map((parts) => `/__mock/${parts.join('/')}`),
    fc.array(segment, { maxLength: 3 }).map((parts) => `/__pages/${parts.join('/')}`),
    fc.string({ maxLength: 8 }).map((id) => `/__uploads/${encodeURIComponent(id)}`),
  );
  const query = fc.oneof(
    fc.constant(''),
    fc
      .array(fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })), { maxLength: 3 })
      .map((pairs) => `?${new URLSearchParams(pairs).toString()}`),
    fc.constantFrom('?limit=-1', '?limit=1e309', '?__proto__=x', '?constructor[prototype][x]=1', '?page=NaN'),
  );
  const json = fc.jsonValue({ maxDepth: 3 });
  const body = fc.oneof(
    fc.constant(undefined),
    json.map((value) => JSON.stringify(value)),
    fc.string({ maxLength: 40 }),
    fc.constantFrom('', 'null', '[]', '{', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}'),
  );
  const headers = fc.record(
    {
      authorization: fc.oneof(
        fc.constant('KEY'),
        fc.constantFrom('Bearer ', 'Bearer pk_sandbox_x', 'Basic abc'),
        fc.string({ maxLength: 20 }),
      ),
      'content-type': fc.constantFrom(
        'application/json',
        'text/plain',
        'application/x-www-form-urlencoded',
        'x',
      ),
      'idempotency-key': fc.oneof(fc.uuid(), fc.string({ maxLength: 10 })),
      origin: fc.constantFrom('https://evil.example', 'null'),
      'x-forwarded-for': fc.constantFrom('203.0.113.7', '::1', 'garbage'),
    },
    { requiredKeys: [] },
  );
  const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE');

  function headerValue(value: string): string {
    // Only what an HTTP client can send: no control characters in a header value.
    return value.replace(/[^\t\x20-\x7e]/g, '');
  }

  async function send(
    m: string,
    target: string,
    h: Record<string, string>,
    b: string | undefined,
  ): Promise<{ status: number; text: string }> {
    const sent: Record<string, string> = {};
    for (const [name, value] of Object.entries(h)) {
      sent[name] =
        name === 'authorization' && value === 'KEY'
          ? `Bearer ${server.service.sandboxKey}`
          : headerValue(value);
    }
    const response = await fetch(`${server.url}${target}`, {
      method: m,
      headers: sent,
      body: m === 'GET' ? undefined : b,
      redirect: 'manual',
    });
    return { status: response.status, text: await response.text() };
  }

  describe('arbitrary requests at the standalone server', () => {
    it('never answer 5xx, never crash it, and a refused one changes nothing', async () => {
      await fc.assert(
        fc.asyncProperty(method, path, query, headers, body, async (m, p, q, h, b) => {
          const before = stateText();
          const answer = await send(m, `${p}${q}`, h, b);
          const label = `${m} ${p}${q} ${JSON.stringify(h)} ${JSON.stringify(b)} → ${answer.status} ${answer.text.slice(0, 200)}`;
          expect(answer.status, label).toBeLessThan(500);
          if (answer.status >= 400) expect(stateText(), label).toBe(before);
        }),
        { numRuns: 400 },
      );
      expect((await send('GET', '/v2/account', { authorization: 'KEY' }, undefined)).status).toBe(200);
    });

    it('every helper with arbitrary arguments: no 5xx, and a refusal changes nothing', async () => {
      const names = Object.entries(listHelpers(server.service)).flatMap(([group, actions]) =>
        actions.map((action) => (group ? `${group}/${action}` : action)),
      );
      const argument = fc.oneof(
        json,
        fc.record({
          userId: fc.constantFrom(userId, '__proto__', ''),
          channel: fc.constantFrom('mobile', 'email', 1),
        }),
        fc.record({ args: fc.array(json, { maxLength: 3 }) }),
        fc.constantFrom(1e16, -1, '1e16h', '9999999999d', null, { version: 1 }, { accountId: '__proto__' }),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...names.filter((n) => n !== 'webhooks/useFetch')),
          argument,
          async (name, arg) => {
            const before = stateText();
            const answer = await send(
              'POST',
              `/__mock/${name}`,
              { 'content-type': 'application/json' },
              JSON.stringify(arg),
            );
            const label = `${name}(${JSON.stringify(arg)?.slice(0, 80)}) → ${answer.status} ${answer.text.slice(0, 200)}`;
            expect(answer.status, label).toBeLessThan(500);
            if (answer.status >= 400) expect(stateText(), label).toBe(before);
            // Whatever a helper accepted, the server still answers the API.
            const alive = await send('GET', '/v2/account', { authorization: 'KEY' }, undefined);
            expect([200, 403, 429], label).toContain(alive.status);
          },
        ),
        { numRuns: 300 },
      );
    });
  });
});

describe('GET /__mock/health', () => {
  /**
   * `GET /__mock/health`: what a container's health check and a test harness's wait strategy ask. It answers under
   * any host (another container names the mock by its service name), and leaves no trace: nothing journalled,
   * nothing recorded for a replay, however often a health check asks.
   */

  const server = standaloneServer();

  /** A GET with the Host another container would send. */
  function getAs(host: string, path: string): Promise<{ status: number; body: string }> {
    const { hostname, port } = new URL(server.origin);
    return new Promise((resolve, reject) => {
      const req = request({ hostname, port, path, headers: { host } }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  describe('GET /__mock/health', () => {
    it('answers 200 serving, under another host than the helpers accept', async () => {
      const answer = await getAs('mock:4010', '/__mock/health');
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({ success: true, data: { status: 'serving' } });
      // The helpers themselves still answer only under a loopback host.
      expect((await getAs('mock:4010', '/__mock/clock/now')).status).toBe(403);
      expect((await fetch(`${server.origin}/__mock/health`, { method: 'POST' })).status).toBe(405);
    });

    it('is neither journalled nor recorded', async () => {
      const steps = async () =>
        ((await server.helper('bundle')).body.data as { steps: unknown[] }).steps.length;
      const journal = async () =>
        ((await fetch(`${server.origin}/__mock/journal`).then((r) => r.json())) as { data: unknown[] }).data
          .length;
      const [stepsBefore, journalBefore] = [await steps(), await journal()];
      for (let i = 0; i < 5; i += 1) expect((await fetch(`${server.origin}/__mock/health`)).status).toBe(200);
      expect(await steps()).toBe(stepsBefore);
      expect(await journal()).toBe(journalBefore);
      // What the counts would show of a request that is journalled and recorded: an API call.
      await server.call('GET', '/v2/webhooks');
      expect(await journal()).toBe(journalBefore + 1);
    });
  });
});

describe('the replay fence and the bundle', () => {
  /**
   * A replay is fenced: until `--replay` has run its last step the server answers every request 503, so nothing
   * sent meanwhile takes the recording's place; a replay that answers otherwise than its recording says so, and
   * `--strict-replay` stops on it; a bundle's base URL must be http(s).
   */

  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), 'inr-payouts-fence-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A recording that creates one user, reads the account, then reads the clock `reads` times: a long replay. */
  async function recording(reads: number): Promise<{ bundle: MockBundle; userId: string }> {
    const mock = createMockService({ seed: 'fence', baseUrl: 'http://127.0.0.1:9' });
    const headers = { authorization: `Bearer ${mock.sandboxKey}`, 'content-type': 'application/json' };
    const created = await mock.dispatch(
      new Request(`${mock.baseUrl}/v2/users`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ mobile: '9876543210', email: 'asha@example.com', name: 'Asha Rao' }),
      }),
    );
    if (!created) throw new Error('POST /v2/users was not answered');
    const userId = ((await created.json()) as { data: { userId: string } }).data.userId;
    await mock.dispatch(new Request(`${mock.baseUrl}/v2/account`, { headers }));
    for (let i = 0; i < reads; i++) mock.helpers.clock.now();
    return { bundle: JSON.parse(JSON.stringify(mock.bundle())) as MockBundle, userId };
  }

  /** Runs the bin with `--replay file` until it exits or has started (then stops it): its exit code and output. */
  function startCli(
    file: string,
    extra: string[] = [],
  ): Promise<{ status: number | null; stdout: string; stderr: string }> {
    const child = spawn(
      `${root}node_modules/.bin/tsx`,
      ['mock/bin/mock-server.ts', '--port', '0', '--replay', file, ...extra],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      // The helpers line is printed last: the server has started.
      if (/test helpers:.*\n/.test(stdout)) child.kill('SIGTERM');
    });
    return new Promise((resolve) => child.once('exit', (status) => resolve({ status, stdout, stderr })));
  }

  describe('the replay fence', () => {
    it('answers every request 503 until the last step has run; a create sent meanwhile takes nothing', async () => {
      const { bundle, userId } = await recording(20_000);
      const running = await startMockServer({ port: 0, service: { replay: bundle } });
      try {
        const key = running.service.sandboxKey;
        const during = await Promise.all([
          fetch(`${running.url}/v2/users`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ mobile: '9876500000', email: 'racer@example.com', name: 'Racer' }),
          }),
          fetch(`${running.url}/__mock/snapshot`),
          fetch(`${running.url}/openapi.json`),
        ]);
        for (const answer of during) {
          expect(answer.status).toBe(503);
          expect(answer.headers.get('retry-after')).toBe('1');
          expect(await answer.json()).toMatchObject({
            code: 'REPLAY_IN_PROGRESS',
            message: expect.stringContaining(`replaying a bundle of ${bundle.steps.length} steps`),
          });
        }
        const summary = await running.service.replayed;
        expect(summary?.diverged).toEqual([]);
        const users = Object.values(running.service.state.users.byId);
        expect(users.map((u) => u.id)).toEqual([userId]);
        const after = await fetch(`${running.url}/v2/account`, {
          headers: { authorization: `Bearer ${key}` },
        });
        expect(after.status).toBe(200);
      } finally {
        await running.close();
      }
    }, 60_000);
  });

  describe('a replay that diverges from its recording', () => {
    it('is reported in the summary, with the step and both statuses', async () => {
      const { bundle } = await recording(1);
      const create = bundle.steps[0];
      if (create?.type !== 'request' || !create.answer) throw new Error('the create has no recorded answer');
      expect(create.answer.status).toBe(201);
      create.answer.status = 200;
      const read = bundle.steps[1];
      if (read?.type !== 'request' || !read.answer) throw new Error('the read has no recorded answer');
      read.answer.digest = 'fnv1a32:00000000';
      const summary = await createMockService({ replay: bundle }).replayed;
      expect(summary?.diverged).toEqual([
        "step 1 (POST /v2/users) answered 201, the recording's 200",
        "step 2 (GET /v2/account) answered 200 with another body than the recording's",
      ]);
    });

    it('--strict-replay stops with exit 1 and says where; without it the server starts with a warning', async () => {
      const { bundle } = await recording(1);
      const create = bundle.steps[0];
      if (create?.type !== 'request' || !create.answer) throw new Error('the create has no recorded answer');
      create.answer.status = 409;
      const file = join(dir, 'diverging.json');
      writeFileSync(file, JSON.stringify(bundle));
      const strict = await startCli(file, ['--strict-replay']);
      expect(strict.status).toBe(1);
      expect(strict.stderr).toContain(`--replay: the replay of ${file} diverged from its recording`);
      expect(strict.stderr).toContain("step 1 (POST /v2/users) answered 201, the recording's 409");
      expect(strict.stderr).toContain('Stopped (--strict-replay)');
      expect(strict.stdout).not.toContain('listening');

      const lenient = await startCli(file);
      expect(lenient.stderr).toContain('warning: --replay: the replay of');
      expect(lenient.stdout).toContain('listening on');
      expect(lenient.stdout).toMatch(/diverged at 1 points/);
    }, 60_000);
  });

  describe("a bundle's base URL", () => {
    it('must be http(s): javascript:x// is refused naming the field, and nothing is replayed', async () => {
      const { bundle } = await recording(1);
      const foreign = { ...bundle, options: { ...bundle.options, baseUrl: 'javascript:x//' } };
      expect(() => createMockService({ replay: foreign })).toThrow(
        /field options\.baseUrl must be an http or https URL/,
      );
      const file = join(dir, 'javascript.json');
      writeFileSync(file, JSON.stringify(foreign));
      const refused = await startCli(file);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain(
        `--replay: ${file}: The replay bundle is not valid: field options.baseUrl`,
      );
      expect(refused.stdout).not.toContain('listening');
    }, 30_000);
  });
});

describe('a transaction over HTTP', () => {
  /**
   * A whole transaction over HTTP with plain `fetch`, moved along by the `/__mock` helpers: a verified user,
   * a standard transaction, the deposit, its confirmations and the payout on the virtual clock.
   */

  const server = standaloneServer(['--seed', 'transactions']);

  describe('a transaction over HTTP', () => {
    it('4.2, 3.1: created (201), deposit simulated, confirmed on the clock, paid out to completed', async () => {
      const seeded = await server.helper('users/seedVerified', { mobile: '9876543210', name: 'Asha Rao' });
      const { userId } = seeded.body.data as { userId: string };

      const body = { userId, amount: '100', asset: 'USDT', network: 'polygon', partnerReference: 'order-1' };
      const headers = { 'Idempotency-Key': '0b8f7c6e-2a8c-4b1f-9a59-55b4fd1e2c10' };
      const created = await server.call('POST', '/v2/transactions', body, headers);
      expect(created.status).toBe(201);
      const { transactionId, depositAddress } = created.body.data as {
        transactionId: string;
        depositAddress: string;
      };
      expect(depositAddress).toBeTruthy();
      const replay = await server.call('POST', '/v2/transactions', body, headers);
      expect(replay.status).toBe(200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');

      const deposit = await server.helper('transactions/simulateDeposit', { transactionId, amount: '100' });
      expect(deposit.status).toBe(200);
      await server.helper('clock/advance', deposit.body.data);
      const confirmed = await server.call('GET', `/v2/transactions/${transactionId}`);
      expect(confirmed.body.data).toMatchObject({ deposit: { status: 'confirmed', receivedAmount: '100' } });

      await server.helper('clock/advance', '1h');
      const done = await server.call('GET', '/v2/transactions/order-1');
      expect(done.status).toBe(200);
      expect(done.body.data).toMatchObject({
        transaction: { id: transactionId, status: 'completed', partnerReference: 'order-1' },
        payout: { status: 'completed' },
      });
    });

    it('3.1: a helper transition the transaction is not in is refused with 409 and the reason', async () => {
      const seeded = await server.helper('users/seedVerified', { mobile: '9876500010' });
      const { userId } = seeded.body.data as { userId: string };
      const created = await server.call('POST', '/v2/transactions', {
        userId,
        amount: '50',
        asset: 'USDC',
        network: 'base',
      });
      const { transactionId } = created.body.data as { transactionId: string };
      const refused = await server.helper('transactions/completePayout', { transactionId });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({
        code: 'TRANSITION_REFUSED',
        state: 'created',
        allowed: ['payout_processing'],
      });
    });
  });
});

/**
 * What the server hands the service and what it sends back, over real connections: a binary body byte for byte,
 * request headers read as fetch's `Headers` reads them (repeated ones joined), repeated `set-cookie`
 * kept apart, a JSON answer's length in bytes, the client-IP header from the socket only, a GET without a body
 * whatever came with it, and a request its client abandons mid-body.
 */
describe('what the server hands the service and sends back, over real connections', () => {
  const running = mockServerForTests({ port: 0, service: { seed: 'adapter' } });

  /** Sends `head` (the request line and headers, CRLF-separated) and `body` on a new connection; its whole answer. */
  function rawExchange(head: string[], body = ''): Promise<{ status: number; head: string; body: string }> {
    const { port } = new URL(running.url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.end(`${[...head, 'Connection: close'].join('\r\n')}\r\n\r\n${body}`),
      );
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1');
      });
      socket.on('error', reject);
      socket.on('close', () => {
        const end = text.indexOf('\r\n\r\n');
        resolve({
          status: Number(text.slice(9, 12)),
          head: text.slice(0, end),
          body: Buffer.from(text.slice(end + 4), 'latin1').toString(),
        });
      });
    });
  }

  const auth = () => ({ Authorization: `Bearer ${running.service.sandboxKey}` });

  describe('the request the service is handed', () => {
    it('reads its headers as fetch Headers: lower case, repeated ones joined, in name order', async () => {
      const sent: [string, string][] = [
        ['Authorization', `Bearer ${running.service.sandboxKey}`],
        ['X-Multi', 'one'],
        ['x-multi', ' two '],
        ['Cookie', 'a=1'],
        ['cookie', 'b=2'],
        ['Set-Cookie', 's=1'],
        ['set-cookie', 't=2'],
        ['Accept', 'application/json'],
      ];
      let seen: [string, string][] = [];
      const stop = running.service.override('account.retrieve', ({ request }) => {
        seen = [...request.headers].filter(
          ([name]) => !['host', 'connection', 'x-mock-client-ip'].includes(name),
        );
        return undefined;
      });
      try {
        const answer = await rawExchange([
          'GET /v2/account HTTP/1.1',
          `Host: ${new URL(running.url).host}`,
          ...sent.map(([name, value]) => `${name}: ${value}`),
        ]);
        expect(answer.status).toBe(200);
      } finally {
        stop();
      }
      expect(seen).toEqual([...new Headers(sent)]);
    });

    it('a binary body arrives byte for byte', async () => {
      const bytes = new Uint8Array(256).map((_, i) => i);
      await fetch(`${running.url}/v2/users`, {
        method: 'POST',
        headers: { ...auth(), 'Content-Type': 'application/octet-stream' },
        body: bytes,
      });
      // The recording keeps what the service read: bytes that are not UTF-8, as base64.
      const last = running.service.bundle().steps.at(-1);
      expect(last?.type === 'request' ? last.bodyBase64 : undefined).toBe(
        Buffer.from(bytes).toString('base64'),
      );
    });

    it('repeated set-cookie answers go out as separate headers, beside the body as built', async () => {
      const text = await (await fetch(`${running.url}/v2/account`, { headers: auth() })).text();
      const stop = running.service.override('account.retrieve', () => {
        const headers = new Headers({ 'content-type': 'application/json' });
        headers.append('set-cookie', 'a=1');
        headers.append('set-cookie', 'b=2');
        return new Response(text, { headers });
      });
      try {
        const answer = await fetch(`${running.url}/v2/account`, { headers: auth() });
        expect(answer.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
        expect(new Uint8Array(await answer.arrayBuffer())).toEqual(new Uint8Array(Buffer.from(text)));
      } finally {
        stop();
      }
    });

    it('a JSON answer goes out as its text, its length counted in bytes', async () => {
      const answer = await fetch(`${running.url}/v2/users`, {
        method: 'POST',
        headers: { ...auth(), 'Content-Type': 'application/json' },
        body: JSON.stringify({ mobile: '9876500011', name: 'Ānanya Rāo ₹ ✓' }),
      });
      const text = await answer.text();
      expect(answer.status).toBe(201);
      expect(answer.headers.get('content-type')).toBe('application/json');
      expect(text).toContain('Ānanya Rāo ₹ ✓');
      expect(answer.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    });

    it('5.5: the client-IP header comes from the socket, never from the client', async () => {
      let seen: string | null = null;
      const stop = running.service.override('account.retrieve', ({ request }) => {
        seen = request.headers.get('x-mock-client-ip');
        return undefined;
      });
      try {
        const answer = await fetch(`${running.url}/v2/account`, {
          headers: { ...auth(), 'x-mock-client-ip': '203.0.113.7' },
        });
        expect(answer.status).toBe(200);
      } finally {
        stop();
      }
      expect(seen).toBe('127.0.0.1');
    });

    it('a GET carries no body, whatever bytes came with it', async () => {
      let bodyless = false;
      const stop = running.service.override('account.retrieve', ({ request }) => {
        bodyless = request.body === null;
        return undefined;
      });
      try {
        const answer = await rawExchange(
          [
            'GET /v2/account HTTP/1.1',
            `Host: ${new URL(running.url).host}`,
            `Authorization: Bearer ${running.service.sandboxKey}`,
            'Content-Length: 3',
          ],
          'abc',
        );
        expect(answer.status).toBe(200);
      } finally {
        stop();
      }
      expect(bodyless).toBe(true);
      const last = running.service.bundle().steps.at(-1);
      expect(last?.type === 'request' && (last.body ?? last.bodyBase64)).toBe(undefined);
    });

    it('8: a dropped connection (a network-error answer) closes the socket with no answer; the next is served', async () => {
      running.service.helpers.faults.inject({ kind: 'drop', match: { method: 'GET', path: '/v2/account' } });
      await expect(fetch(`${running.url}/v2/account`, { headers: auth() })).rejects.toThrow();
      expect((await fetch(`${running.url}/v2/account`, { headers: auth() })).status).toBe(200);
    });

    it('a request whose client leaves mid-body changes nothing, and the server serves on', async () => {
      const users = Object.keys(running.service.state.users.byId).length;
      const { port } = new URL(running.url);
      await new Promise<void>((resolve) => {
        const socket = connect(Number(port), '127.0.0.1', () => {
          socket.write(
            `POST /v2/users HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${running.service.sandboxKey}\r\n` +
              'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"mobile":"98765',
            () => socket.destroy(),
          );
        });
        socket.on('close', () => resolve());
      });
      const after = await fetch(`${running.url}/v2/users`, {
        method: 'POST',
        headers: { ...auth(), 'Content-Type': 'application/json' },
        body: JSON.stringify({ mobile: '9876500012' }),
      });
      expect(after.status).toBe(201);
      expect(Object.keys(running.service.state.users.byId)).toHaveLength(users + 1);
    });
  });
});

/**
 * The URLs the server hands out (an upload URL, the face and document-locker pages, the OpenAPI documents' server)
 * name the address the request was sent to, so they are right behind a port mapping, a proxy or a container's
 * published port; `publicUrl` (`--public-url`) names another one, and a bad one is refused at start.
 */
describe('the URLs the server hands out name the address the request was sent to', () => {
  const server = mockServerForTests({ port: 0, service: { seed: 'public-url' } });
  const behindProxy = mockServerForTests({
    port: 0,
    service: { seed: 'public-url' },
    publicUrl: 'https://mock.example.test/sandbox',
  });

  let mobiles = 0;

  /** The URLs `running` hands out to requests sent with `host` as their `Host`. */
  async function urlsFor(running: RunningMockServer, host: string) {
    const headers = {
      Host: host,
      Authorization: `Bearer ${running.service.sandboxKey}`,
      'Content-Type': 'application/json',
    };
    const call = async (path: string, body: unknown) => {
      const answer = await rawRequest(running.url, 'POST', path, headers, JSON.stringify(body));
      expect(answer.status, answer.text).toBeLessThan(300);
      return JSON.parse(answer.text).data as Record<string, string>;
    };
    mobiles += 1;
    const { userId = '' } = await call('/v2/users', { mobile: String(9876500000 + mobiles) });
    const upload = await call(`/v2/users/${userId}/kyc/document/upload-url`, {
      documentType: 'passport',
      fileName: 'passport.pdf',
      mimeType: 'application/pdf',
      fileSize: 2048,
      deviceId: 'device-1',
    });
    const face = await call(`/v2/users/${userId}/kyc/face/init`, {
      redirectUrl: 'https://partner.test/back',
    });
    const locker = await call(`/v2/users/${userId}/kyc/digilocker/init`, {
      redirectUrl: 'https://partner.test/back',
    });
    const documents = await rawRequest(running.url, 'GET', '/openapi.json', { Host: host });
    return {
      upload: upload.uploadUrl,
      face: face.url,
      locker: locker.url,
      openapi: (JSON.parse(documents.text) as { servers: { url: string }[] }).servers[0]?.url,
    };
  }

  describe('the URLs the server hands out', () => {
    it('name the address the request was sent to: another Host than the listening one, a mapped port', async () => {
      const { port } = new URL(server.url);
      for (const host of [`localhost:${port}`, 'mock.example.test:8080']) {
        const urls = await urlsFor(server, host);
        expect(urls.upload).toMatch(new RegExp(`^http://${host}/__uploads/`));
        expect(urls.face).toMatch(new RegExp(`^http://${host}/__pages/face/`));
        expect(urls.locker).toMatch(new RegExp(`^http://${host}/__pages/digilocker/`));
        expect(urls.openapi).toBe(`http://${host}`);
      }
    });

    it('an upload URL handed out under another Host is served at the server', async () => {
      const { port } = new URL(server.url);
      const { upload = '' } = await urlsFor(server, `localhost:${port}`);
      const put = await fetch(upload.replace(`localhost:${port}`, `127.0.0.1:${port}`), {
        method: 'PUT',
        headers: { 'Content-Type': 'application/pdf' },
        body: new Uint8Array(2048),
      });
      expect(put.status).toBe(200);
    });

    it('publicUrl overrides the address of the request', async () => {
      const { port } = new URL(behindProxy.url);
      for (const host of [`127.0.0.1:${port}`, 'internal-name:4010']) {
        const urls = await urlsFor(behindProxy, host);
        expect(urls.upload).toMatch(/^https:\/\/mock\.example\.test\/sandbox\/__uploads\//);
        expect(urls.face).toMatch(/^https:\/\/mock\.example\.test\/sandbox\/__pages\/face\//);
        expect(urls.locker).toMatch(/^https:\/\/mock\.example\.test\/sandbox\/__pages\/digilocker\//);
        expect(urls.openapi).toBe('https://mock.example.test/sandbox');
      }
    });
  });

  describe('--public-url', () => {
    it('is read as a base: origin and path, without a trailing slash', () => {
      expect(parseCli(['--public-url', 'https://Mock.Example.test:443/sandbox/']).publicUrl).toBe(
        'https://mock.example.test/sandbox',
      );
      expect(parseCli(['--public-url', 'http://localhost:8080']).publicUrl).toBe('http://localhost:8080');
      expect(parseCli([]).publicUrl).toBeUndefined();
    });

    it('refuses what is not an http or https base URL, saying what it must be', () => {
      for (const bad of [
        'mock.example.test',
        'ftp://mock.example.test',
        'https://x.test/?a=1',
        'https://u:p@x.test',
      ]) {
        expect(() => parseCli(['--public-url', bad]), bad).toThrow(
          /--public-url must be an absolute http or https URL without a query, fragment or credentials.*Usage:/s,
        );
      }
    });
  });
});

describe('the work a request makes due runs before its answer, as through mock.fetch and msw', () => {
  it('a created user: attempt 1 of user.created has reached the receiver when the answer comes back', async () => {
    const running = await startMockServer({ port: 0 });
    try {
      const received: string[] = [];
      running.service.helpers.accounts.update({ webhookUrl: 'https://partner.test/hooks' });
      running.service.helpers.webhooks.useFetch(async (_url, init) => {
        received.push(JSON.parse(String(init.body)).event);
        return new Response(null, { status: 200 });
      });
      const created = await fetch(`${running.url}/v2/users`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${running.service.sandboxKey}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ mobile: '9876500077' }),
      });
      expect(created.status).toBe(201);
      expect(received).toEqual(['user.created']);
    } finally {
      await running.close();
    }
  });
});
