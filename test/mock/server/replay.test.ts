/**
 * Exact replays on the standalone server: `POST /__mock/bundle` gives the run's bundle, and
 * `inr-payouts-mock --replay bundle.json` serves the same state, journal and webhook bodies without sending a
 * webhook; a bundle that is not valid stops the start, naming the file and the field.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_VERSION, createMockService } from '../../../mock/index.js';
import { parseCli, readBundleFile } from '../../../mock/server/cli.js';
import { createUser, type RunningServer, startServer } from './support.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'inr-payouts-replay-'));

let receiver: Server;
let receiverUrl: string;
/** Bodies the receiver was sent; it refuses the first with a 500, then takes every one. */
const received: string[] = [];

beforeAll(async () => {
  receiver = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    received.push(body);
    res.writeHead(received.length === 1 ? 500 : 200).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

/**
 * What the test compares. Reading the snapshot and the captured deliveries is journalled (and recorded), so
 * the recording reads them before its journal and its bundle, and the replay reads its journal first.
 */
async function read(server: RunningServer, journalFirst = false) {
  const journal = () => fetch(`${server.url}/__mock/journal`).then((r) => r.json());
  const first = journalFirst ? await journal() : undefined;
  const snapshot = await server.helper('snapshot');
  const captured = await server.helper('webhooks/captured');
  const last = first ?? (await journal());
  return {
    snapshot: JSON.stringify(snapshot.body.data),
    bodies: JSON.stringify((captured.body.data as { body: string }[]).map((d) => d.body)),
    journal: JSON.stringify(last.data),
  };
}

describe('exact replays on the standalone server', () => {
  it('POST /__mock/bundle, then --replay, serve the same state, journal and webhook bodies, and send nothing', async () => {
    const recording = await startServer(['--webhook-url', receiverUrl, '--seed', 'support-case']);
    let original: Awaited<ReturnType<typeof read>>;
    let file: string;
    try {
      await createUser(recording);
      // A key the partner chose, sent twice: the second answer is the stored one.
      await recording.call('POST', '/v2/users', { mobile: '9876500000' }, { 'Idempotency-Key': 'k1' });
      const again = await recording.call(
        'POST',
        '/v2/users',
        { mobile: '9876500000' },
        { 'Idempotency-Key': 'k1' },
      );
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      await recording.helper('faults/inject', {
        kind: 'error',
        status: 503,
        match: { path: '/v2/account' },
      });
      expect((await recording.call('GET', '/v2/account')).status).toBe(503);
      const { userId: ready } = (await recording.helper('users/seedVerified', { mobile: '9123456780' })).body
        .data as { userId: string };
      const created = await recording.call(
        'POST',
        '/v2/transactions',
        { userId: ready, amount: '100', asset: 'USDT', network: 'base' },
        { 'Idempotency-Key': 'order-1' },
      );
      expect(created.status).toBe(201);
      const { transactionId } = created.body.data as { transactionId: string };
      const wait = await recording.helper('transactions/simulateDeposit', { transactionId });
      await recording.helper('clock/advance', wait.body.data);
      await recording.helper('clock/advance', '10m');
      await recording.helper('webhooks/settle');
      original = await read(recording);
      expect(received.length).toBeGreaterThan(2);

      const bundled = await fetch(`${recording.url}/__mock/bundle`, { method: 'POST' });
      expect(bundled.status).toBe(200);
      const bundle = (await bundled.json()).data;
      expect(bundle).toMatchObject({ format: 'inr-payouts-mock-bundle', version: BUNDLE_VERSION });
      expect(bundle.steps).toContainEqual(
        expect.objectContaining({ type: 'request', path: '/v2/transactions', body: expect.any(String) }),
      );
      // The receiver's answers are in the bundle, the 500 first.
      expect(bundle.webhooks[0].answer).toMatchObject({ ok: false, status: 500 });
      file = join(dir, 'bundle.json');
      writeFileSync(file, JSON.stringify(bundle));
    } finally {
      await recording.stop();
    }

    const sent = received.length;
    const replay = await startServer(['--replay', file]);
    try {
      expect(replay.output()).toMatch(/replayed: +\d+ steps of .*bundle\.json/);
      const again = await read(replay, true);
      expect(again.journal).toBe(original.journal);
      expect(again.bodies).toBe(original.bodies);
      expect(again.snapshot).toBe(original.snapshot);
      // The receiver was answered from the bundle: the replay sent it nothing.
      expect(received.length).toBe(sent);
    } finally {
      await replay.stop();
    }
  }, 60_000);

  it('--replay refuses a bundle that is not valid before it opens a port, naming the file and the field', () => {
    const tsx = `${root}node_modules/.bin/tsx`;
    const start = (file: string, extra: string[] = []) =>
      spawnSync(tsx, ['mock/bin/mock-server.ts', '--port', '0', '--replay', file, ...extra], {
        cwd: root,
        encoding: 'utf8',
      });
    const bad = join(dir, 'bad.json');
    const text = JSON.stringify({
      format: 'inr-payouts-mock-bundle',
      version: 99,
      options: {},
      steps: [],
      webhooks: [],
    });
    writeFileSync(bad, text);
    const refused = start(bad);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`--replay: ${bad}: The replay bundle is not valid: field version`);
    expect(refused.stdout).not.toContain('listening');
    // The file is left as it was.
    expect(readFileSync(bad, 'utf8')).toBe(text);

    const notJson = join(dir, 'truncated.json');
    writeFileSync(notJson, '{"format":"inr-payouts-mock-bundle","vers');
    expect(start(notJson).stderr).toContain(`--replay: ${notJson} is not JSON`);

    const clash = start(bad, ['--seed', 'other']);
    expect(clash.status).toBe(1);
    expect(clash.stderr).toContain('--replay takes the run from the bundle: drop --seed');
  });

  it('--replay runs on a manual clock unless a speed is given, and reads a bundle saved with its envelope', () => {
    expect(parseCli(['--replay', 'b.json'])).toMatchObject({ replay: 'b.json', speed: 'manual' });
    expect(parseCli(['--replay', 'b.json', '--speed', '60'])).toMatchObject({ speed: 60 });
    expect(() => parseCli(['--replay', 'b.json', '--chaos', '7', '--state-file', 's.json'])).toThrow(
      /--replay takes the run from the bundle: drop --state-file, --chaos/,
    );
    const mock = createMockService({ seed: 'envelope' });
    mock.helpers.clock.now();
    const bundle = mock.bundle();
    // `curl … > bundle.json` without `jq .data` keeps the server's `{ success, data }`: read as the bundle.
    const saved = join(dir, 'envelope.json');
    writeFileSync(saved, JSON.stringify({ success: true, data: bundle }));
    expect(readBundleFile(saved)).toEqual(bundle);
    expect(() => readBundleFile(join(dir, 'missing.json'))).toThrow(/--replay: cannot read .*missing\.json/);
  });
});
