/**
 * A replay is fenced: until `--replay` has run its last step the server answers every request 503, so nothing
 * sent meanwhile takes the recording's place; a replay that answers otherwise than its recording says so, and
 * `--strict-replay` stops on it; a bundle's base URL must be http(s).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockService, type MockBundle } from '../../../mock/index.js';
import { startMockServer } from '../../../mock/server/server.js';

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
      const after = await fetch(`${running.url}/v2/account`, { headers: { authorization: `Bearer ${key}` } });
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
