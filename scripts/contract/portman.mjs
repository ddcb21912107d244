// CI's Portman/Newman proof: Portman turns openapi.json (the API only: the helpers are in another document, so
// nothing here resets a sandbox) into a Postman collection with contract tests on every answer (status, content
// type, JSON body, the response schema), and Newman runs it against a fresh standalone server (dist/, from the
// build) with its sandbox key. The operations are those a fresh sandbox completes with the API alone
// (scripts/contract/portman/filter.json): confirming an OTP or paying out needs what a person does, which only
// the helpers stand in for. Exits 1 on any failed test.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root, startMock } from '../support.mjs';
import { ensureTools } from './tools.mjs';

const here = join(root, 'scripts/contract/portman');

/**
 * Builds the collection for `apiUrl` (the server, or a proxy in front of it) and runs it with the server's sandbox
 * key. Resolves with Newman's exit status.
 */
export async function runPortman(apiUrl, key) {
  const tool = ensureTools();
  const out = mkdtempSync(join(tmpdir(), 'inr-portman-'));
  try {
    const collection = join(out, 'collection.json');
    const portman = spawnSync(
      tool('portman'),
      [
        ...['--local', join(root, 'openapi.json'), '--baseUrl', apiUrl],
        ...[
          '--portmanConfigFile',
          join(here, 'portman-config.json'),
          '--filterFile',
          join(here, 'filter.json'),
        ],
        ...['--output', collection],
      ],
      { cwd: out, stdio: 'inherit' },
    );
    if (portman.status !== 0) throw new Error('portman could not build the collection');
    const newman = spawnSync(
      tool('newman'),
      ['run', collection, '--env-var', `bearerToken=${key}`, '--bail'],
      { cwd: out, stdio: 'inherit' },
    );
    const status = newman.status ?? 1;
    const requests = JSON.parse(readFileSync(collection, 'utf8')).item.flatMap((i) => i.item ?? [i]).length;
    console.log(
      `${status === 0 ? 'PASS' : 'FAIL'} Portman contract tests, ${requests} requests, on a fresh server`,
    );
    return status;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const server = await startMock();
  let status = 1;
  try {
    status = await runPortman(server.url, server.key);
  } finally {
    await server.stop();
  }
  process.exit(status);
}
