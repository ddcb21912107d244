import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { verifyWebhook } from 'inr-payouts/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_VERSION, createMockService } from '../../../mock/index.js';
import { parseCli, readBundleFile } from '../../../mock/server/cli.js';
import { launcherPids, watchProcesses } from '../../../mock/server/launcher.js';
import { createUser, type RunningServer, startServer } from './support.js';

/**
 * The command line: option parsing, `--help`, refusing bad options with the usage, and the real-time clock.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('inr-payouts-mock options', () => {
  it('defaults: port 4010 on 127.0.0.1, real-time clock', () => {
    expect(parseCli([])).toMatchObject({ port: 4010, host: '127.0.0.1', speed: 1, help: false });
  });

  it('reads every option', () => {
    const options = parseCli([
      '--port=0',
      '--host',
      '0.0.0.0',
      '--speed',
      '60',
      '--start-time',
      '2025-03-01T09:00:00Z',
      '--seed',
      'team',
      '--webhook-url',
      'http://127.0.0.1:3000/webhooks',
      '--state-file',
      'sandbox.json',
      '--recorder-budget',
      '4',
      '--journal-budget',
      '2.5',
    ]);
    expect(options).toEqual({
      port: 0,
      host: '0.0.0.0',
      speed: 60,
      startTime: '2025-03-01T09:00:00Z',
      seed: 'team',
      webhookUrl: 'http://127.0.0.1:3000/webhooks',
      stateFile: 'sandbox.json',
      strictReplay: false,
      budgets: { recordingBytes: 4_000_000, journalBytes: 2_500_000 },
      help: false,
    });
    expect(parseCli(['--speed', 'manual']).speed).toBe('manual');
    expect(parseCli(['--speed', 'realtime']).speed).toBe(1);
  });

  it('refuses a bad option with what is wrong and the usage', () => {
    expect(() => parseCli(['--port', '70000'])).toThrow(/--port must be 0 to 65535.*Usage:/s);
    expect(() => parseCli(['--speed', 'fast'])).toThrow(
      /--speed must be realtime, manual or a positive factor/,
    );
    expect(() => parseCli(['--speed', '0'])).toThrow(/--speed/);
    expect(() => parseCli(['--start-time', 'yesterday'])).toThrow(/--start-time must be an ISO 8601 time/);
    expect(() => parseCli(['--webhook-url', 'not a url'])).toThrow(/--webhook-url is not a URL/);
    expect(() => parseCli(['--colour'])).toThrow(/Unknown option '--colour'.*Usage:/s);
  });

  it('--sandbox-key and --webhook-secret: read as given, refused when a client or a receiver could not use them', () => {
    expect(
      parseCli(['--sandbox-key', 'pk_sandbox_compose', '--webhook-secret', 'whsec_compose']),
    ).toMatchObject({ sandboxKey: 'pk_sandbox_compose', webhookSecret: 'whsec_compose' });
    expect(() => parseCli(['--sandbox-key', 'pk_live_compose'])).toThrow(
      /--sandbox-key must be pk_sandbox_ and more.*got pk_live_compose.*Usage:/s,
    );
    expect(() => parseCli(['--sandbox-key', 'pk_sandbox_'])).toThrow(/--sandbox-key must be/);
    expect(() => parseCli(['--sandbox-key', 'pk_sandbox_a b'])).toThrow(/--sandbox-key must be/);
    expect(() => parseCli(['--webhook-secret', ''])).toThrow(/--webhook-secret must be one word/);
    expect(() => parseCli(['--webhook-secret', 'whsec_x\n'])).toThrow(/--webhook-secret must be one word/);
    // A replay's account is the bundle's.
    expect(() => parseCli(['--replay', 'run.json', '--sandbox-key', 'pk_sandbox_x'])).toThrow(
      /--replay takes the run from the bundle: drop --sandbox-key/,
    );
    expect(() => parseCli(['--replay', 'run.json', '--webhook-secret', 'whsec_x'])).toThrow(
      /drop --webhook-secret/,
    );
  });

  it('--help prints the usage and exits 0; a bad option exits 1 with the reason', () => {
    const tsx = `${root}node_modules/.bin/tsx`;
    const help = spawnSync(tsx, ['mock/bin/mock-server.ts', '--help'], { cwd: root, encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: inr-payouts-mock');
    expect(help.stdout).toContain('--state-file');
    const bad = spawnSync(tsx, ['mock/bin/mock-server.ts', '--port', 'x'], { cwd: root, encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('--port must be 0 to 65535');
  });

  it('watches the processes that launched it, and reports once when one has ended', async () => {
    const parent = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 200)']);
    const exited = new Promise((resolve) => parent.on('exit', resolve));
    const gone: number[] = [];
    const timer = watchProcesses([process.pid, parent.pid ?? 0], (pid) => gone.push(pid), 20);
    expect(timer).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(gone).toEqual([]);
    await exited;
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(gone).toEqual([parent.pid]);
    // Nothing to watch: no timer.
    expect(watchProcesses([], () => {})).toBeUndefined();
  });

  it('run by npm through its shell, watches both; started from another shell, nothing; by a program, that program', () => {
    // npx → sh -c → the server, as `ps` shows them.
    const tree: Record<number, { ppid: number; command: string }> = {
      300: { ppid: 200, command: 'sh -c inr-payouts-mock --port 0' },
      200: { ppid: 100, command: 'npm exec inr-payouts-mock --port 0' },
      100: { ppid: 50, command: 'node --test' },
      50: { ppid: 1, command: '-bash' },
    };
    const read = (pid: number) => {
      const info = tree[pid];
      return info && { pid, ...info };
    };
    expect(launcherPids(300, read)).toEqual([300, 200]);
    // npm's own script when its title is not set; npm as the parent (a script shell that execs its command).
    tree[200] = {
      ppid: 100,
      command: '/usr/bin/node /usr/lib/node_modules/npm/bin/npx-cli.js inr-payouts-mock',
    };
    expect(launcherPids(300, read)).toEqual([300, 200]);
    expect(launcherPids(200, read)).toEqual([200]);
    // A harness (or a wrapper) that spawned the bin: that program; its parent unreadable: the parent alone.
    expect(launcherPids(100, read)).toEqual([100]);
    expect(launcherPids(999, read)).toEqual([999]);
    // `nohup inr-payouts-mock &` from a terminal's login shell, or from a harness's shell: nothing.
    expect(launcherPids(50, read)).toEqual([]);
    tree[400] = { ppid: 100, command: 'sh -c nohup inr-payouts-mock &' };
    expect(launcherPids(400, read)).toEqual([]);
    // Started by init or a service manager: nothing.
    expect(launcherPids(1, read)).toEqual([]);
  });

  it('--speed runs the virtual clock faster than real time by that factor', async () => {
    // One real millisecond is 10 virtual seconds: ten virtual minutes pass in about 60 real ms.
    const server = await startServer(['--speed', '10000', '--start-time', '2025-03-01T09:00:00Z']);
    try {
      expect(server.output()).toContain('(10000x)');
      let now = '';
      for (let i = 0; i < 100; i += 1) {
        now = String((await server.helper('clock/now')).body.data);
        if (now > '2025-03-01T09:10:00.000Z') break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(now > '2025-03-01T09:10:00.000Z').toBe(true);
    } finally {
      await server.stop();
    }
  });
});

/**
 * What grows with traffic has a byte budget: the replay recording and the journal keep a window of the newest
 * within it, say where the window starts, and a replay of a windowed bundle is refused, never silently
 * different. (The standalone server under a 128 MB heap and a 5-minute soak: test/slow/heap-128.test.ts and soak.test.ts.)
 */

describe('the budget flags', () => {
  it('--recorder-budget and --journal-budget take megabytes', () => {
    expect(parseCli(['--recorder-budget', '8', '--journal-budget', '0.5']).budgets).toEqual({
      recordingBytes: 8_000_000,
      journalBytes: 500_000,
    });
    expect(parseCli([]).budgets).toEqual({});
    expect(() => parseCli(['--journal-budget', 'lots'])).toThrow(
      /--journal-budget must be a number of megabytes of at least 0.1, got lots/,
    );
  });
});

describe('a fixed sandbox key and webhook secret, on a started server', () => {
  /**
   * `--sandbox-key` and `--webhook-secret`: a compose file or a CI service fixes the default account's key and
   * secret, so the services beside the mock are configured before it starts; a reset keeps them and the webhook
   * URL, and a state file made with other values is refused rather than served with keys the other services do
   * not hold.
   */

  const dir = mkdtempSync(join(tmpdir(), 'inr-payouts-fixed-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const KEY = 'pk_sandbox_compose_example';
  const SECRET = 'whsec_compose_example';

  describe('a fixed sandbox key and webhook secret', () => {
    it('are printed, answer the API, sign the webhooks and survive a reset', async () => {
      const deliveries: { body: string; signature: string }[] = [];
      const receiver = createServer(async (req, res) => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        deliveries.push({
          body: Buffer.concat(chunks).toString('utf8'),
          signature: String(req.headers['x-service-signature']),
        });
        res.end();
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      const { port } = receiver.address() as AddressInfo;
      const server = await startServer([
        '--sandbox-key',
        KEY,
        '--webhook-secret',
        SECRET,
        '--webhook-url',
        `http://127.0.0.1:${port}/webhooks`,
      ]);
      try {
        expect([server.key, server.secret]).toEqual([KEY, SECRET]);
        const userId = await createUser(server);
        expect((await server.call('GET', `/v2/users/${userId}/kyc/status`)).status).toBe(200);
        await server.helper('webhooks/settle');
        const [delivery] = deliveries;
        expect(verifyWebhook(delivery?.body ?? '', delivery?.signature ?? '', SECRET)).toMatchObject({
          event: 'user.created',
          data: { userId },
        });
        await server.helper('reset');
        const account = (await server.helper('accounts/get')).body.data;
        expect(account).toMatchObject({
          keys: { sandbox: KEY },
          webhookSecret: SECRET,
          webhookUrl: `http://127.0.0.1:${port}/webhooks`,
        });
        // The events after a reset, with or without a new seed, still reach the URL the server started with.
        for (const reset of [undefined, { seed: 'after-reset' }]) {
          if (reset) await server.helper('reset', reset);
          const before = deliveries.length;
          const again = await createUser(server);
          await server.helper('webhooks/settle');
          const [sent] = deliveries.slice(before);
          expect(verifyWebhook(sent?.body ?? '', sent?.signature ?? '', SECRET)).toMatchObject({
            event: 'user.created',
            data: { userId: again },
          });
        }
      } finally {
        await server.stop();
        receiver.close();
      }
    });

    it('a state file made with other values is refused, named, and left as it was', async () => {
      const file = join(dir, 'fixed.db');
      const fixedValues = ['--state-file', file, '--sandbox-key', KEY, '--webhook-secret', SECRET];
      const first = await startServer(fixedValues);
      const userId = await createUser(first);
      expect(await first.stop()).toBe(0);
      const before = readFileSync(file);

      await expect(
        startServer(['--state-file', file, '--sandbox-key', KEY, '--webhook-secret', 'whsec_other']),
      ).rejects.toThrow(
        /--webhook-secret: the state file .*fixed\.db holds an account with another webhook secret/,
      );
      await expect(startServer(['--state-file', file, '--sandbox-key', 'pk_sandbox_other'])).rejects.toThrow(
        /--sandbox-key: the state file .* another sandbox key .*start on a new file/,
      );
      expect(readFileSync(file).equals(before)).toBe(true);

      // The same values, or none: the file's account, loaded.
      const second = await startServer(fixedValues);
      try {
        expect(second.output()).toContain('(loaded)');
        expect((await second.call('GET', `/v2/users/${userId}/kyc/status`)).status).toBe(200);
      } finally {
        await second.stop();
      }
    }, 60_000);
  });
});

describe('replays of a bundle, on a started server', () => {
  /**
   * Exact replays on the standalone server: `POST /__mock/bundle` gives the run's bundle, and
   * `inr-payouts-mock --replay bundle.json` serves the same state, journal and webhook bodies without sending a
   * webhook; a bundle that is not valid stops the start, naming the file and the field.
   */

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
        const { userId: ready } = (await recording.helper('users/seedVerified', { mobile: '9123456780' }))
          .body.data as { userId: string };
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
      expect(() => readBundleFile(join(dir, 'missing.json'))).toThrow(
        /--replay: cannot read .*missing\.json/,
      );
    });
  });
});
