// `npm run test:runtimes`: proves the built package (dist/) on every runtime partners run it on. Starts the
// standalone mock server (dist/bin/mock-server.js) on a free port, then runs scripts/runtimes/checks.mjs on
// Node (this one, the toolchain's 24, and the floor's line, 22), Bun, Deno and Cloudflare's workerd (through
// miniflare, with and without nodejs_compat); and the bin's --state-file on Node 22 and 24. The other runtimes are
// npm packages carrying their binaries; they are installed on first use into .runtimes/ (git-ignored), never as
// dev dependencies. Prints PASS/FAIL per runtime; exits 1 on any FAIL.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureNodeLines, nodeBinary } from './node-lines.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const here = join(root, 'scripts/runtimes');
const prefix = join(root, '.runtimes');
const modules = join(prefix, 'node_modules');

/** The runtime packages besides Node (node-lines.mjs installs those), pinned by major version, and their binaries. */
const PACKAGES = ['@oven/bun-linux-x64@1', '@deno/linux-x64-glibc@2', 'miniflare@4'];
const BIN = {
  bun: join(modules, '@oven/bun-linux-x64/bin/bun'),
  deno: join(modules, '@deno/linux-x64-glibc/deno'),
  miniflare: join(modules, 'miniflare/dist/src/index.js'),
};

function run(command, args, options = {}) {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: root, ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => {
      stdout += c;
    });
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      done({ code: -1, stdout, stderr: String(error) });
    });
  });
}

async function ensureRuntimes() {
  ensureNodeLines([22, 24]);
  if (Object.values(BIN).every((p) => existsSync(p))) return;
  console.log(`installing ${PACKAGES.join(', ')} into .runtimes/ ...`);
  await mkdir(prefix, { recursive: true });
  if (!existsSync(join(prefix, 'package.json'))) {
    await writeFile(join(prefix, 'package.json'), '{ "name": "inr-payouts-runtimes", "private": true }\n');
  }
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const installed = await run(npm, ['install', '--prefix', prefix, '--no-audit', '--no-fund', ...PACKAGES], {
    timeoutMs: 600_000,
  });
  if (installed.code !== 0) throw new Error(`installing the runtimes failed:\n${installed.stderr}`);
}

/** Starts the standalone mock on a free port with a manual clock; resolves with its address and credentials. */
function startMock() {
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      [join(root, 'dist/bin/mock-server.js'), '--port', '0', '--speed', 'manual'],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const url = /listening on (\S+)/.exec(out)?.[1];
      const apiKey = /sandbox API key: (\S+)/.exec(out)?.[1];
      const webhookSecret = /webhook secret:\s+(\S+)/.exec(out)?.[1];
      if (url && apiKey && webhookSecret) done({ child, baseUrl: url, apiKey, webhookSecret });
    });
    child.on('exit', (code) =>
      fail(new Error(`the mock server exited (${code}) before it was ready:\n${out}`)),
    );
  });
}

function parseResults(text) {
  const line = text
    .trim()
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('['));
  try {
    return line ? JSON.parse(line) : undefined;
  } catch {
    return undefined;
  }
}

async function viaProcess(command, args, env) {
  const done = await run(command, [...args, join(here, 'check-cli.mjs')], {
    env: { ...process.env, ...env },
  });
  return {
    results: parseResults(done.stdout),
    error: done.code === 0 ? '' : `${done.stderr}${done.stdout}`.trim(),
  };
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

async function version(command, args) {
  const done = await run(command, args);
  return done.stdout.trim().split('\n')[0] ?? '';
}

const started = Date.now();
await ensureRuntimes();
if (!existsSync(join(root, 'dist/index.js'))) throw new Error('dist/ is missing: run npm run build first');
const mock = await startMock();
const env = (n) => ({
  MOCK_BASE_URL: mock.baseUrl,
  MOCK_API_KEY: mock.apiKey,
  MOCK_WEBHOOK_SECRET: mock.webhookSecret,
  MOCK_MOBILE: `98765432${String(n).padStart(2, '0')}`,
});

const matrix = [
  [`Node ${process.version}`, () => viaProcess(process.execPath, [], env(1))],
  [`Node ${await version(nodeBinary(22), ['--version'])}`, () => viaProcess(nodeBinary(22), [], env(2))],
  [`Bun ${await version(BIN.bun, ['--version'])}`, () => viaProcess(BIN.bun, ['run'], env(3))],
  [
    `${await version(BIN.deno, ['--version'])}`,
    () =>
      viaProcess(
        BIN.deno,
        ['run', '--quiet', '--allow-net', '--allow-env', '--allow-read', '--no-prompt'],
        env(4),
      ),
  ],
  ['workerd (miniflare, nodejs_compat)', () => viaWorkerd(env(5), ['nodejs_compat'])],
  ['workerd (miniflare, no Node APIs)', () => viaWorkerd(env(6), [])],
  ...[
    ['(22)', nodeBinary(22)],
    ['(24)', nodeBinary(24)],
  ].map(([line, node]) => [
    `--state-file on Node ${line}`,
    async () => {
      const done = await run(node, [join(here, 'state-file.mjs')]);
      return {
        results: parseResults(done.stdout),
        error: done.code === 0 ? '' : `${done.stderr}${done.stdout}`.trim(),
      };
    },
  ]),
];

let failed = 0;
try {
  for (const [name, check] of matrix) {
    const t0 = Date.now();
    const { results, error } = await check().catch((e) => ({
      results: undefined,
      error: String(e?.stack ?? e),
    }));
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
