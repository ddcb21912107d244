// CI's Portman/Newman proof: Portman turns openapi.json (the API only: the helpers are in another document, so
// nothing here resets a sandbox) into a Postman collection with contract tests on every answer (status, content
// type, JSON body, the response schema, declared headers), and Newman runs it against a fresh standalone server
// (dist/, from the build) with its sandbox key. The operations are those a fresh sandbox completes with the API
// alone (scripts/contract/portman/filter.json): confirming an OTP or paying out needs what a person does, which
// only the helpers stand in for. Exits 1 on any failed test.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureTools, root, startServer } from './tools.mjs';

const tool = ensureTools();
const here = join(root, 'scripts/contract/portman');
const out = mkdtempSync(join(tmpdir(), 'inr-portman-'));
const server = await startServer();
let status = 1;
try {
  const account = await (await fetch(`${server.url}/__mock/accounts/get`, { method: 'POST' })).json();
  const collection = join(out, 'collection.json');
  const portman = spawnSync(
    tool('portman'),
    [
      '--local',
      join(root, 'openapi.json'),
      '--baseUrl',
      server.url,
      '--portmanConfigFile',
      join(here, 'portman-config.json'),
      '--filterFile',
      join(here, 'filter.json'),
      '--output',
      collection,
    ],
    { cwd: out, stdio: 'inherit' },
  );
  if (portman.status !== 0) throw new Error('portman could not build the collection');
  const newman = spawnSync(
    tool('newman'),
    ['run', collection, '--env-var', `bearerToken=${account.data.keys.sandbox}`, '--bail'],
    { cwd: out, stdio: 'inherit' },
  );
  status = newman.status ?? 1;
  const requests = JSON.parse(readFileSync(collection, 'utf8')).item.flatMap((i) => i.item ?? [i]).length;
  console.log(
    `${status === 0 ? 'PASS' : 'FAIL'} Portman contract tests, ${requests} requests, on a fresh server`,
  );
} finally {
  await server.stop();
  rmSync(out, { recursive: true, force: true });
}
process.exit(status);
