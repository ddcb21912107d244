#!/usr/bin/env node
// `npm run test:consumers`: proves the PACKED package the way partners install it. Each consumer in
// test/consumers/<dir>/ is a small project of its own (package.json, test files); this copies it into a fresh
// folder outside the repository, installs the tarball and the consumer's own devDependencies there, and runs
// its `npm test`. Prints PASS/FAIL per consumer; exits 1 on any FAIL.
// Usage: node scripts/consumers/run.mjs [--tarball inr-payouts-x.y.z.tgz] [--keep] [name...]
//   Without --tarball it packs the package once (`npm pack`, which needs `npm run build` first).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const consumers = join(root, 'test/consumers');

/**
 * Every consumer: its folder and, where one folder serves two set-ups, the packages installed over its own
 * devDependencies (Jest 29 runs the Jest 30 project unchanged).
 */
const MATRIX = [
  { name: 'npx inr-payouts-mock, no msw installed', dir: 'npx-bin' },
  { name: 'Jest 30, no configuration (client, webhooks, money)', dir: 'jest' },
  { name: 'Jest 29, no configuration (client, webhooks, money)', dir: 'jest', install: ['jest@29'] },
  { name: 'Jest 30, ESM mode (the mock with msw/node)', dir: 'jest-esm' },
  { name: 'Jest 29, ESM mode (the mock with msw/node)', dir: 'jest-esm', install: ['jest@29'] },
  { name: 'Vitest (ESM), the testing guide', dir: 'vitest' },
  { name: 'TypeScript, every moduleResolution', dir: 'typescript' },
  { name: 'Node ESM and CommonJS scripts, the getting-started guide', dir: 'node-scripts' },
];
/** Two at a time: CI has two cores, and installs are mostly waiting on the network. */
const PARALLEL = 2;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { tarball: { type: 'string' }, keep: { type: 'boolean' } },
});

function run(command, args, cwd, timeoutMs = 600_000) {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      done({ code: -1, output: `${output}${error}` });
    });
  });
}

const work = await mkdtemp(join(tmpdir(), 'inr-payouts-consumers-'));
let tarball = values.tarball ? resolve(values.tarball) : undefined;
if (!tarball) {
  if (!existsSync(join(root, 'dist/index.js'))) throw new Error('dist/ is missing: run npm run build first');
  const packed = await run('npm', ['pack', '--silent', '--pack-destination', work], root);
  if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.output}`);
  tarball = join(work, packed.output.trim().split('\n').at(-1));
}
if (!existsSync(tarball)) throw new Error(`no tarball at ${tarball}`);

async function prove(consumer, index) {
  const dir = join(work, `${index}-${consumer.dir}`);
  await mkdir(dir, { recursive: true });
  await cp(join(consumers, consumer.dir), dir, {
    recursive: true,
    filter: (source) => !source.includes('node_modules'),
  });
  // The tarball replaces the registry's inr-payouts; the consumer's own package.json brings the rest.
  const installed = await run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, ...(consumer.install ?? [])],
    dir,
  );
  if (installed.code !== 0) return { ok: false, output: `npm install failed:\n${installed.output}` };
  const tested = await run('npm', ['test', '--silent'], dir);
  return { ok: tested.code === 0, output: tested.output };
}

const selected = positionals.length
  ? MATRIX.filter((c) => positionals.some((p) => c.dir === p || c.name.includes(p)))
  : MATRIX;
const started = Date.now();
const results = new Array(selected.length);
let next = 0;
async function worker() {
  while (next < selected.length) {
    const index = next++;
    const consumer = selected[index];
    const t0 = Date.now();
    const result = await prove(consumer, index).catch((error) => ({
      ok: false,
      output: String(error?.stack ?? error),
    }));
    results[index] = result;
    console.log(
      `${result.ok ? 'PASS' : 'FAIL'} ${consumer.name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`,
    );
    if (!result.ok) console.log(`  ${result.output.trim().split('\n').slice(-40).join('\n  ')}`);
  }
}
await Promise.all(Array.from({ length: PARALLEL }, worker));

const failed = results.filter((r) => !r.ok).length;
console.log(
  `\nconsumer matrix: ${selected.length - failed} of ${selected.length} passed in ` +
    `${((Date.now() - started) / 1000).toFixed(1)} s (${tarball})`,
);
if (values.keep) console.log(`kept: ${work}`);
else await rm(work, { recursive: true, force: true });
process.exitCode = failed === 0 ? 0 : 1;
