// The standalone mock's --state-file on the Node running this script (the runtime matrix runs it on each Node
// line): a write answered before a kill -9 is there after a restart, and after a clean stop too. Prints one
// JSON line of results, as check-cli.mjs does; exits 1 when a check failed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMock } from '../support.mjs';

const dir = mkdtempSync(join(tmpdir(), 'inr-payouts-state-file-'));
const file = join(dir, 'sandbox.db');
/** The bin on the state file, once it has said whether it loaded the file. */
const start = () => startMock(['--state-file', file], (out) => /state file:.*\n/.test(out));

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
  await first.stop('SIGKILL');
  const second = await start();
  const afterKill = (await kycStatus(second, userId)).status;
  results.push({
    name: 'a user answered before kill -9 is there after a restart',
    ok: afterKill === 200 && second.seen.stdout.includes('(loaded)'),
    detail: `GET kyc/status answered ${afterKill}`,
  });
  await second.stop();
  const third = await start();
  const afterStop = (await kycStatus(third, userId)).status;
  results.push({ name: 'and after a clean stop', ok: afterStop === 200, detail: `answered ${afterStop}` });
  await third.stop();
} catch (error) {
  results.push({ name: '--state-file', ok: false, detail: String(error?.stack ?? error) });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(JSON.stringify(results));
if (results.some((r) => !r.ok)) process.exit(1);
