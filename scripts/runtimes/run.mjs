// `npm run test:runtimes`: proves the built package (dist/) on every runtime partners run it on. Starts the
// standalone mock server (dist/bin/mock-server.js) on a free port, then runs scripts/runtimes/checks.mjs on
// Node (this one, the toolchain's 24, and the floor's line, 22), Bun, Deno and Cloudflare's workerd (through
// miniflare, with and without nodejs_compat); and the bin's --state-file on Node 22 and 24. The other runtimes are
// npm packages carrying their binaries; they are installed on first use into .runtimes/ (git-ignored), never as
// dev dependencies. Prints PASS/FAIL per runtime; exits 1 on any FAIL.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { installInto, root, run, startMock } from '../support.mjs';
import { ensureNodeLines, nodeBinary } from './node-lines.mjs';

const here = join(root, 'scripts/runtimes');
const modules = join(root, '.runtimes/node_modules');

/** The runtime packages besides Node (node-lines.mjs installs those), pinned by major version, and their binaries. */
const PACKAGES = ['@oven/bun-linux-x64@1', '@deno/linux-x64-glibc@2', 'miniflare@4'];
const BIN = {
  bun: join(modules, '@oven/bun-linux-x64/bin/bun'),
  deno: join(modules, '@deno/linux-x64-glibc/deno'),
  miniflare: join(modules, 'miniflare/dist/src/index.js'),
};

/** The results a check prints as its last JSON line, undefined without one. */
function parseResults(text) {
  const line = text.split('\n').findLast((l) => l.startsWith('['));
  try {
    return line ? JSON.parse(line) : undefined;
  } catch {
    return undefined;
  }
}

/** Runs a script of this folder under `command`, which prints its results as one JSON line. */
async function viaProcess(command, args, env = {}) {
  const done = await run(command, args, { env: { ...process.env, ...env }, timeoutMs: 120_000 });
  const error = done.code === 0 ? '' : `${done.stderr}${done.stdout}`.trim();
  return { results: parseResults(done.stdout), error };
}

async function viaWorkerd(env, compatibilityFlags) {
  const esbuild = await import('esbuild');
  const bundle = await esbuild.build({
    entryPoints: [join(here, 'worker.mjs')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const { Miniflare } = await import(pathToFileURL(BIN.miniflare).href);
  const mf = new Miniflare({
    modules: true,
    script: bundle.outputFiles[0].text,
    compatibilityDate: '2025-09-01',
    compatibilityFlags,
    bindings: env,
  });
  try {
    const response = await mf.dispatchFetch('http://worker.local/');
    const text = await response.text();
    return { results: parseResults(text), error: response.ok ? '' : text };
  } finally {
    await mf.dispose();
  }
}

async function version(command) {
  const done = await run(command, ['--version'], { timeoutMs: 120_000 });
  return done.stdout.trim().split('\n')[0] ?? '';
}

const started = Date.now();
ensureNodeLines([22, 24]);
if (!Object.values(BIN).every((path) => existsSync(path))) installInto(join(root, '.runtimes'), PACKAGES);
if (!existsSync(join(root, 'dist/index.js'))) throw new Error('dist/ is missing: run npm run build first');
const mock = await startMock();
const checkCli = join(here, 'check-cli.mjs');
const DENO_FLAGS = ['--quiet', '--allow-net', '--allow-env', '--allow-read', '--no-prompt'];
const env = (n) => ({
  MOCK_BASE_URL: mock.url,
  MOCK_API_KEY: mock.key,
  MOCK_WEBHOOK_SECRET: mock.secret,
  MOCK_MOBILE: `98765432${String(n).padStart(2, '0')}`,
});

const matrix = [
  [`Node ${process.version}`, () => viaProcess(process.execPath, [checkCli], env(1))],
  [`Node ${await version(nodeBinary(22))}`, () => viaProcess(nodeBinary(22), [checkCli], env(2))],
  [`Bun ${await version(BIN.bun)}`, () => viaProcess(BIN.bun, ['run', checkCli], env(3))],
  [await version(BIN.deno), () => viaProcess(BIN.deno, ['run', ...DENO_FLAGS, checkCli], env(4))],
  ['workerd (miniflare, nodejs_compat)', () => viaWorkerd(env(5), ['nodejs_compat'])],
  ['workerd (miniflare, no Node APIs)', () => viaWorkerd(env(6), [])],
  ...[22, 24].map((line) => [
    `--state-file on Node (${line})`,
    () => viaProcess(nodeBinary(line), [join(here, 'state-file.mjs')]),
  ]),
];

let failed = 0;
try {
  for (const [name, check] of matrix) {
    const t0 = Date.now();
    const { results, error } = await check().catch((e) => ({ error: String(e?.stack ?? e) }));
    const ok = Array.isArray(results) && results.length > 0 && results.every((r) => r.ok) && !error;
    if (!ok) failed += 1;
    console.log(`${ok ? 'PASS' : 'FAIL'} ${name} (${Date.now() - t0} ms)`);
    for (const r of results ?? [])
      console.log(`  ${r.ok ? 'ok  ' : 'FAIL'} ${r.name}${r.ok ? '' : `: ${r.detail}`}`);
    if (error) console.log(`  ${error.split('\n').slice(0, 15).join('\n  ')}`);
  }
} finally {
  mock.child.kill('SIGTERM');
}
console.log(
  `\nruntime matrix: ${matrix.length - failed} of ${matrix.length} passed in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
process.exitCode = failed === 0 ? 0 : 1;
