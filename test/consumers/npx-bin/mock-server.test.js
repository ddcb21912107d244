// The standalone mock server as other languages and front ends use it: `npx inr-payouts-mock` in a project
// that installed only inr-payouts. A test harness starts it, uses it, and ends it; ending either the `npx`
// process or the bin itself must end the server and free its port: SIGTERM, SIGKILL or SIGHUP to npx alone
// (npx dies, and the server sees its launcher gone), SIGINT or SIGTERM to the bin.
// SIGINT is what Ctrl-C sends to the terminal's whole process group, so the harness sends it to npx's group:
// npm runs the bin under `sh -c` and passes a SIGINT on to that shell alone, and dash (Debian's and Ubuntu's sh)
// holds it until its child exits, so npx, the shell and the server all go on running (docs/mock-server.md).
// Run directly in the background by a shell, the server outlives that shell.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

const require = createRequire(import.meta.url);
const BIN = 'node_modules/.bin/inr-payouts-mock';

/** Starts the server through `command` on a free port; resolves once it has printed its address and key. */
function start(command, args) {
  const child = spawn(command, [...args, '--port', '0', '--speed', 'manual'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, as a terminal gives each command line.
    detached: true,
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const read = (chunk) => {
      out += chunk;
      const url = /listening on (\S+)/.exec(out)?.[1];
      const apiKey = /sandbox API key: (\S+)/.exec(out)?.[1];
      if (url && apiKey) resolve({ child, url, apiKey, port: Number(new URL(url).port) });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => reject(new Error(`${command} exited (${code}) before serving:\n${out}`)));
  });
}

/** Whether something still accepts connections on the port: try to take it. */
function portIsFree(port) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

async function freed(port) {
  for (let i = 0; i < 50; i++) {
    if (await portIsFree(port)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

test('only inr-payouts is installed: no msw', () => {
  assert.throws(() => require.resolve('msw'), { code: 'MODULE_NOT_FOUND' });
});

test('npx inr-payouts-mock --help prints the usage, and the guide it names is in the package', () => {
  const help = spawnSync('npx', ['inr-payouts-mock', '--help'], { encoding: 'utf8' });
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /Usage: inr-payouts-mock/);
  const guide = /(node_modules\/inr-payouts\/docs\/\S+\.md)/.exec(help.stdout)?.[1];
  assert.ok(guide, 'the usage names the guide');
  assert.ok(existsSync(guide), `${guide} is installed`);
});

/** Sends `signal` as a harness would: to npx's whole process group for SIGINT (as Ctrl-C does), else to the process. */
function end(server, launcher, signal) {
  if (launcher === 'npx' && signal === 'SIGINT') process.kill(-server.child.pid, signal);
  else server.child.kill(signal);
}

for (const [launcher, command, args, signals] of [
  ['npx', 'npx', ['inr-payouts-mock'], ['SIGTERM', 'SIGINT', 'SIGKILL', 'SIGHUP']],
  ['the bin', BIN, [], ['SIGTERM', 'SIGINT']],
]) {
  for (const signal of signals) {
    const to = launcher === 'npx' && signal === 'SIGINT' ? ' to its process group' : '';
    test(`started with ${launcher}, it answers; ${signal}${to} ends the server`, async () => {
      const server = await start(command, args);
      try {
        const response = await fetch(`${server.url}/v2/account`, {
          headers: { authorization: `Bearer ${server.apiKey}` },
        });
        assert.equal(response.status, 200);
        const body = await response.json();
        assert.equal(typeof body.data, 'object');
        const unauthorised = await fetch(`${server.url}/v2/account`);
        assert.equal(unauthorised.status, 401);
      } finally {
        const exited = new Promise((resolve) => server.child.once('exit', resolve));
        end(server, launcher, signal);
        await exited;
      }
      assert.ok(
        await freed(server.port),
        `port ${server.port} is still taken: the server outlived ${launcher}`,
      );
    });
  }
}

test('npx inr-payouts-mock conformance --base-url <a server it started>: no difference, exit 0', async () => {
  const server = await start(BIN, []);
  try {
    const run = spawn('npx', ['inr-payouts-mock', 'conformance', '--base-url', server.url], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    run.stdout.on('data', (chunk) => {
      out += chunk;
    });
    run.stderr.on('data', (chunk) => {
      err += chunk;
    });
    const code = await new Promise((resolve) => run.once('exit', resolve));
    assert.equal(code, 0, `${out}\n${err}`);
    assert.match(out, /^Conformance of http:\/\/127\.0\.0\.1:\d+ against the mock/);
    assert.match(out, /\d+ scenarios: \d+ same, 0 differ, 0 skipped\n$/);
    assert.match(err, /^conformance: http:\/\/127\.0\.0\.1:\d+, tiers read-only, creates, mock-helpers/);
  } finally {
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    await exited;
  }
});

test('run directly in the background by a shell that then exits, it keeps serving', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'inr-payouts-nohup-'));
  const log = join(dir, 'server.log');
  // The shell starts the server, prints its PID and exits, as a terminal closed after `nohup … &` would.
  const shell = spawnSync(
    'sh',
    ['-c', `nohup ${BIN} --port 0 --speed manual > ${log} 2>&1 & echo $!; sleep 1`],
    {
      encoding: 'utf8',
    },
  );
  const pid = Number(shell.stdout.trim());
  assert.ok(pid > 0, shell.stderr);
  try {
    // Longer than the server's half-second watch would take to notice a watched parent gone.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const out = readFileSync(log, 'utf8');
    const url = /listening on (\S+)/.exec(out)?.[1];
    assert.ok(url, out);
    const response = await fetch(`${url}/v2/account`);
    assert.equal(response.status, 401);
    process.kill(pid, 'SIGTERM');
    assert.ok(await freed(Number(new URL(url).port)), 'SIGTERM to the server itself frees the port');
  } finally {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already ended, as it should have.
    }
    rmSync(dir, { recursive: true, force: true });
  }
});

test('npx inr-payouts-mock --state-file keeps an answered write across kill -9, the next server starting at once (Node’s own SQLite)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'inr-payouts-state-'));
  const file = join(dir, 'sandbox.db');
  const stop = async (server, signal) => {
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill(signal);
    await exited;
  };
  try {
    const first = await start(BIN, ['--state-file', file]);
    const created = await fetch(`${first.url}/v2/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${first.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ mobile: '9876543210' }),
    });
    assert.equal(created.status, 201);
    const { userId } = (await created.json()).data;
    await stop(first, 'SIGKILL');
    const second = await start('npx', ['inr-payouts-mock', '--state-file', file]);
    try {
      const status = await fetch(`${second.url}/v2/users/${userId}/kyc/status`, {
        headers: { authorization: `Bearer ${second.apiKey}` },
      });
      assert.equal(status.status, 200);
    } finally {
      const exited = new Promise((resolve) => second.child.once('exit', resolve));
      end(second, 'npx', 'SIGINT');
      await exited;
      assert.ok(await freed(second.port), 'the server stopped');
    }
    // The file is SQLite's own format: its header says so.
    assert.equal(readFileSync(file).subarray(0, 16).toString('latin1'), 'SQLite format 3\0');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
