#!/usr/bin/env node
// Cold import time of each entry: fresh `node` processes that import dist/index.js, dist/webhooks.js,
// dist/mock.js, stripe (a devDependency, the ratios' peer) and openai (installed on first use into .bench/,
// git-ignored: openai 7 needs Node 22, so openai 6), against a process that imports nothing and one that imports
// an empty ES module. Runs interleaved (each round runs every contender once, in a rotating order) so a burst of
// load on a shared machine lands on every contender alike. Each figure is a time over `node -e 0`; each ratio is
// the median of its per-round ratios (both sides measured seconds apart), printed with the range of its middle
// half of rounds (p25-p75). Each child also times its own import from the inside, which leaves out process
// start-up and its noise.
// The targets of docs/performance.md (TARGETS, below) are each printed PASS or FAIL with their figure.
// Usage: node scripts/cold-import.mjs [--runs N] [--enforce]   (needs `npm run build` first; --enforce exits 1
// on a FAIL; CI only reports, its shared machines too noisy to gate on)
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { installInto, median, quantile, root, rotating } from './support.mjs';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '21' }, enforce: { type: 'boolean' } },
});
const runs = Number(values.runs);

for (const path of ['dist/index.js', 'dist/webhooks.js', 'dist/mock.js']) {
  if (!existsSync(join(root, path))) {
    console.error(`cold-import: ${path} is missing; run \`npm run build\` first.`);
    process.exit(2);
  }
}

const bench = join(root, '.bench');
try {
  if (!existsSync(join(bench, 'node_modules/openai/package.json'))) installInto(bench, ['openai@6']);
} catch (error) {
  console.error(`cold-import: ${error.message}`);
  process.exit(2);
}

// Every contender is an ESM script given to `node --input-type=module -e`, so all pay the same start-up.
const importing = (specifier) =>
  `const t = performance.now(); await import(${JSON.stringify(specifier)}); ` +
  'process.stdout.write(String(performance.now() - t));';
const dist = (file) => pathToFileURL(join(root, 'dist', file)).href;
const contenders = {
  'node -e 0': 'process.stdout.write("0");',
  // The floor of any import: Node's ESM loader starting up for one empty module.
  'empty module': importing('data:text/javascript,export default 0'),
  'inr-payouts': importing(dist('index.js')),
  'inr-payouts/webhooks': importing(dist('webhooks.js')),
  'inr-payouts/mock': importing(dist('mock.js')),
  stripe: importing('stripe'),
  // Resolved from .bench/, where it is installed.
  openai: importing('openai'),
};
const cwdOf = (name) => (name === 'openai' ? bench : root);
const names = Object.keys(contenders);
const wall = Object.fromEntries(names.map((n) => [n, []]));
const inside = Object.fromEntries(names.map((n) => [n, []]));

function runOnce(name) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', contenders[name]], {
    cwd: cwdOf(name),
    stdio: 'pipe',
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) {
    console.error(`cold-import: ${name} failed:\n${result.stderr}`);
    process.exit(2);
  }
  return { ms, inside: Number(String(result.stdout)) };
}

for (const name of names) runOnce(name); // warm the file system cache
for (const name of rotating(names, runs)) {
  const timing = runOnce(name);
  wall[name].push(timing.ms);
  inside[name].push(timing.inside);
}

const base = median(wall['node -e 0']);
const over = (name) => median(wall[name]) - base;
/** Per-round times over that round's `node -e 0`. */
const overByRound = (name) => wall[name].map((ms, i) => ms - wall['node -e 0'][i]);
/** Median and middle half of the per-round ratios subject / baseline, both over `node -e 0`. */
function ratio(subject, baseline) {
  const s = overByRound(subject);
  const b = overByRound(baseline);
  const rounds = s.map((value, i) => value / b[i]).filter(Number.isFinite);
  return { median: median(rounds), low: quantile(rounds, 0.25), high: quantile(rounds, 0.75) };
}

console.log(`cold import, median of ${runs} fresh processes each (Node ${process.version}):`);
for (const name of names) {
  const extra =
    name === 'node -e 0'
      ? ''
      : `  (+${over(name).toFixed(1)} ms over node -e 0; the import itself ${median(inside[name]).toFixed(1)} ms)`;
  console.log(`  ${name.padEnd(22)} ${median(wall[name]).toFixed(1).padStart(7)} ms${extra}`);
}

// Each target: its label, the subject, the baseline, and the bar the ratio must stay at or under. msw is installed
// here: the mock's figure shows it never loads it.
const TARGETS = [
  ['client import (inr-payouts) / stripe', 'inr-payouts', 'stripe', 0.6],
  ['mock import (inr-payouts/mock) / stripe', 'inr-payouts/mock', 'stripe', 0.5],
  ['webhooks import / an empty ES module', 'inr-payouts/webhooks', 'empty module', 2],
];
console.log('\nperformance targets (npm run bench:startup; times over node -e 0, per-round ratios)');
let failed = 0;
for (const [label, subject, baseline, bar] of TARGETS) {
  // An empty module costs a few ms over `node -e 0`, within a loaded machine's noise: when the baseline's figure
  // is not clearly above zero, the ratio is of the times each child measured inside instead.
  const insideOnly = over(baseline) < 2;
  const inner = median(inside[subject]) / median(inside[baseline]);
  const { median: value, low, high } = insideOnly ? { median: inner } : ratio(subject, baseline);
  const pass = value <= bar;
  if (!pass) failed += 1;
  console.log(
    `  ${pass ? 'PASS' : 'FAIL'}  ${label.padEnd(42)} ${value.toFixed(2).padStart(5)}x  ` +
      (insideOnly
        ? '(timed inside: the baseline is within noise of node -e 0)'
        : `(middle half of rounds ${low.toFixed(2)}-${high.toFixed(2)}x; timed inside ${inner.toFixed(2)}x)`) +
      `  target <= ${bar}x`,
  );
}
const openai = ratio('inr-payouts', 'openai');
console.log(`  ----  client import / openai, for reference     ${openai.median.toFixed(2).padStart(5)}x`);
if (values.enforce && failed > 0) process.exit(1);
