// The contract tools nobody here wrote (Redocly, Spectral, Portman, Newman, Prism, @hey-api/openapi-ts),
// installed on first use into .contract-tools/ (git-ignored), never as dev dependencies: they are large and only
// CI's contract steps need them. Prism and openapi-ts need a newer Node than the repo's 20; they run under the
// Node 24 that scripts/runtimes/ installs into .runtimes/ (installed here too when missing).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNodeLines, nodeBinary } from '../runtimes/node-lines.mjs';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const prefix = join(root, '.contract-tools');
const bin = join(prefix, 'node_modules/.bin');

/** The tools, pinned by major version. */
const PACKAGES = [
  '@redocly/cli@2',
  '@stoplight/spectral-cli@6',
  '@apideck/portman@1',
  'newman@6',
  '@stoplight/prism-cli@5',
  '@hey-api/openapi-ts@0.99',
  // openapi-ts needs TypeScript beside it; 7 is not one it runs with yet.
  'typescript@~6.0',
];

/** Node 24's binary (Prism and openapi-ts refuse Node 20), from .runtimes/ as the runtime matrix installs it. */
export const NODE24 = nodeBinary(24);

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status})`);
}

/** Installs what is missing; returns the path of a tool's executable. */
export function ensureTools() {
  if (!PACKAGES.every((p) => existsSync(join(prefix, 'node_modules', p.replace(/@[^@/]+$/, ''))))) {
    mkdirSync(prefix, { recursive: true });
    if (!existsSync(join(prefix, 'package.json')))
      writeFileSync(
        join(prefix, 'package.json'),
        '{ "name": "inr-payouts-contract-tools", "private": true }\n',
      );
    console.log(`installing ${PACKAGES.join(', ')} into .contract-tools/ ...`);
    run('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', ...PACKAGES]);
  }
  ensureNodeLines([24]);
  return (name) => join(bin, name);
}

/** Environment for a tool that needs Node 24: its `bin/` first on PATH. */
export function node24Env() {
  return { ...process.env, PATH: `${dirname(NODE24)}:${process.env.PATH}` };
}

/**
 * Starts the built standalone server (dist/bin/mock-server.js) on a free port with a manual clock, fresh;
 * resolves with its URL and a stop function.
 */
export function startServer(args = []) {
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      [join(root, 'dist/bin/mock-server.js'), '--port', '0', '--speed', 'manual', ...args],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const url = /listening on (\S+)/.exec(out)?.[1];
      if (url)
        done({
          url,
          stop: () =>
            new Promise((stopped) => {
              child.once('exit', stopped);
              child.kill('SIGTERM');
            }),
        });
    });
    child.once('exit', (code) =>
      fail(new Error(`the mock server exited (${code}) before listening:\n${out}`)),
    );
  });
}
