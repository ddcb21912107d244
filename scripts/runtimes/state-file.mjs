// The standalone mock's --state-file on the Node running this script (the runtime matrix runs it on each Node
// line): a write answered before a kill -9 is there after a restart, and after a clean stop too. Prints one
// JSON line of results, as check-cli.mjs does; exits 1 when a check failed.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'dist/bin/mock-server.js');
const dir = mkdtempSync(join(tmpdir(), 'inr-payouts-state-file-'));
const file = join(dir, 'sandbox.db');

function start() {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [bin, '--port', '0', '--speed', 'manual', '--state-file', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const read = (chunk) => {
      out += chunk;
      const match = /listening on (\S+)\n\s+sandbox API key: (\S+)/.exec(out);
      if (match && /state file:.*\n/.test(out)) done({ child, url: match[1], key: match[2], out });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => fail(new Error(`the server exited (${code}): ${out}`)));
  });
}

async function stop(server, signal) {
  const exited = new Promise((done) => server.child.once('exit', done));
  server.child.kill(signal);
  await exited;
}

const kycStatus = (server, userId) =>
  fetch(`${server.url}/v2/users/${userId}/kyc/status`, {
    headers: { Authorization: `Bearer ${server.key}` },
  });

const results = [];
try {
  const first = await start();
  const created = await fetch(`${first.url}/v2/users`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${first.key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ mobile: '9876543210' }),
  });
  const { userId } = (await created.json()).data;
  await stop(first, 'SIGKILL');
  const second = await start();
  const afterKill = (await kycStatus(second, userId)).status;
  results.push({
    name: 'a user answered before kill -9 is there after a restart',
    ok: afterKill === 200 && second.out.includes('(loaded)'),
    detail: `GET kyc/status answered ${afterKill}`,
  });
  await stop(second, 'SIGTERM');
  const third = await start();
  const afterStop = (await kycStatus(third, userId)).status;
  results.push({ name: 'and after a clean stop', ok: afterStop === 200, detail: `answered ${afterStop}` });
  await stop(third, 'SIGTERM');
} catch (error) {
  results.push({ name: '--state-file', ok: false, detail: String(error?.stack ?? error) });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(JSON.stringify(results));
if (results.some((r) => !r.ok)) process.exit(1);
