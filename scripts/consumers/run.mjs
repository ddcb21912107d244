#!/usr/bin/env node
// `npm run test:consumers`: proves the PACKED package the way partners install it. Each consumer in
// test/consumers/<dir>/ is a small project of its own (package.json, test files); this copies it into a fresh
// folder outside the repository, installs the tarball and the consumer's own devDependencies there, and runs
// its `npm test`, on the Node line the row names (24 is the toolchain's own, the `node` devDependency; 22 installs
// from npm into .runtimes/, shared with the runtime matrix). Prints PASS/FAIL per consumer; exits 1 on any FAIL.
// Usage: node scripts/consumers/run.mjs [--tarball inr-payouts-x.y.z.tgz] [--keep] [name...]
//   Without --tarball it packs the package once (`npm pack`, whose `prepack` builds dist/).
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureNodeLines, nodeBinary } from '../runtimes/node-lines.mjs';
import { pack, root, run } from '../support.mjs';

const consumers = join(root, 'test/consumers');

/**
 * Every consumer: its folder, the Node line it runs on, and how it is installed. `before` is installed first
 * (`npm install -D`, no other flags, as a partner starting today does), then the tarball with `install` over
 * the consumer's own devDependencies; `uninstall` is removed after.
 */
const MATRIX = [
  { name: 'npx inr-payouts-mock, no msw installed', dir: 'npx-bin', node: 22 },
  { name: 'Jest 30, no configuration, mock.fetch (no msw)', dir: 'jest', node: 24 },
  { name: 'Jest 29, no configuration, mock.fetch (no msw)', dir: 'jest', node: 22, install: ['jest@29'] },
  {
    name: 'Jest 30, ESM mode, msw 3 (setupServer)',
    dir: 'jest-esm',
    node: 24,
    install: ['msw@3'],
  },
  { name: 'Jest 29, ESM mode, msw 2 (setupServer)', dir: 'jest-esm', node: 22, install: ['jest@29'] },
  {
    name: 'Vitest 5 + msw 3 (latest), the testing guide unchanged',
    dir: 'vitest',
    node: 24,
    before: ['msw@latest', 'vitest@latest'],
  },
  {
    name: 'Vitest 4 + msw 2, the testing guide unchanged',
    dir: 'vitest',
    node: 22,
    before: ['msw@2', 'vitest@4'],
  },
  { name: 'TypeScript 5.9/6.0/7.0, msw 2 (the msw set-up)', dir: 'typescript', node: 22 },
  { name: 'TypeScript 5.9/6.0/7.0, msw 3 (the msw set-up)', dir: 'typescript', node: 22, install: ['msw@3'] },
  {
    name: 'TypeScript 5.9/6.0/7.0, no msw (every entry, the typos)',
    dir: 'typescript',
    node: 22,
    uninstall: ['msw'],
  },
  { name: 'Node ESM and CommonJS scripts and node:test, no msw', dir: 'node-scripts', node: 22 },
  {
    name: 'every shipped line: README, docs, examples, TSDoc; TypeScript 7 and 5.9 strictest; msw 3',
    dir: 'shipped-lines',
    node: 24,
  },
  {
    name: 'every shipped line: README, docs, examples, TSDoc; TypeScript 7 and 5.9 strictest; msw 2',
    dir: 'shipped-lines',
    node: 24,
    install: ['msw@2'],
  },
  {
    name: 'msw 2 installed, inr-payouts/mock leaves it unloaded (import and require)',
    dir: 'msw-unloaded',
    node: 22,
  },
  {
    name: 'msw 3 installed, inr-payouts/mock leaves it unloaded (import and require)',
    dir: 'msw-unloaded',
    node: 24,
    install: ['msw@3'],
  },
];
/** Two at a time: CI has two cores, and installs are mostly waiting on the network. */
const PARALLEL = 2;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { tarball: { type: 'string' }, keep: { type: 'boolean' } },
});

/** npm and the tests may take this long, a step; a row that hangs fails instead of holding the matrix. */
const TIMEOUT_MS = 600_000;

const selected = positionals.length
  ? MATRIX.filter((c) => positionals.some((p) => c.dir === p || c.name.includes(p)))
  : MATRIX;
ensureNodeLines(selected.map((c) => c.node));
const work = await mkdtemp(join(tmpdir(), 'inr-payouts-consumers-'));
const tarball = values.tarball ? resolve(values.tarball) : pack(work);
if (!existsSync(tarball)) throw new Error(`no tarball at ${tarball}`);

async function prove(consumer, index) {
  const dir = join(work, `${index}-${consumer.dir}`);
  await cp(join(consumers, consumer.dir), dir, {
    recursive: true,
    filter: (source) => !source.includes('node_modules'),
  });
  // npm and the tests run on the row's Node line (its bin/ first on PATH; npm runs under it too).
  const env = { ...process.env, PATH: `${dirname(nodeBinary(consumer.node))}:${process.env.PATH}` };
  const npm = (args) =>
    run('npm', [...args, '--no-audit', '--no-fund'], { cwd: dir, env, timeoutMs: TIMEOUT_MS });
  const steps = [
    ...(consumer.before ? [['install', '-D', ...consumer.before]] : []),
    // The tarball replaces the registry's inr-payouts; the consumer's own package.json brings the rest.
    ['install', tarball, ...(consumer.install ?? [])],
    ...(consumer.uninstall ? [['uninstall', ...consumer.uninstall]] : []),
  ];
  for (const step of steps) {
    const installed = await npm(step);
    if (installed.code !== 0)
      return { ok: false, output: `npm ${step.join(' ')} failed:\n${installed.output}` };
  }
  const version = await run('node', ['--version'], { cwd: dir, env, timeoutMs: 10_000 });
  const tested = await run('npm', ['test', '--silent'], { cwd: dir, env, timeoutMs: TIMEOUT_MS });
  return { ok: tested.code === 0, output: tested.output, node: version.output.trim() };
}

const started = Date.now();
const results = new Array(selected.length);
// The workers draw the rows from one iterator, each row once.
const rows = selected.entries();
async function worker() {
  for (const [index, consumer] of rows) {
    const t0 = Date.now();
    const result = await prove(consumer, index).catch((error) => ({
      ok: false,
      output: String(error?.stack ?? error),
    }));
    results[index] = result;
    console.log(
      `${result.ok ? 'PASS' : 'FAIL'} ${consumer.name}, Node ${result.node ?? consumer.node} ` +
        `(${((Date.now() - t0) / 1000).toFixed(1)} s)`,
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
