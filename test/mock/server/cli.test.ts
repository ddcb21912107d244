/**
 * The command line: option parsing, `--help`, refusing bad options with the usage, and the real-time clock.
 */
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseCli } from '../../../mock/server/cli.js';
import { launcherPids, watchProcesses } from '../../../mock/server/launcher.js';
import { startServer } from './support.js';

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
