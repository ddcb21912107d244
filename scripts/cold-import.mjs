#!/usr/bin/env node
// Cold import time of each entry: fresh `node` processes that import dist/index.js, dist/webhooks.js, stripe
// (a devDependency, for the client's ratio) and openai (installed on first use into .bench/, git-ignored:
// openai 7 needs Node 22, so openai 6), against a process that imports nothing. Runs interleaved (rotating order) so
// a burst of load on a shared machine lands on every contender alike; prints medians over N runs. Each child
// also times its own import from the inside, which leaves out process start-up and its noise.
// Quality bars (docs/performance.md): client <= 0.6x stripe's cold import; webhooks entry <= 10 ms over `node -e 0`.
// Usage: node scripts/cold-import.mjs [--runs N] [--enforce-webhooks]   (needs `npm run build` first)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const runsFlag = args.indexOf('--runs');
const runs = runsFlag >= 0 ? Number(args[runsFlag + 1]) : 21;
const enforceWebhooks = args.includes('--enforce-webhooks');
const WEBHOOKS_BAR_MS = 10;
const CLIENT_BAR_RATIO = 0.6;

for (const path of ['dist/index.js', 'dist/webhooks.js']) {
  if (!existsSync(`${root}${path}`)) {
    console.error(`cold-import: ${path} is missing; run \`npm run build\` first.`);
    process.exit(1);
  }
}

const bench = `${root}.bench/`;
const OPENAI = 'openai@6';
if (!existsSync(`${bench}node_modules/openai/package.json`)) {
  console.log(`installing ${OPENAI} into .bench/ ...`);
  mkdirSync(bench, { recursive: true });
  writeFileSync(`${bench}package.json`, '{ "name": "inr-payouts-bench", "private": true }\n');
  const installed = spawnSync('npm', ['install', '--no-audit', '--no-fund', OPENAI], {
    cwd: bench,
    stdio: 'inherit',
  });
  if (installed.status !== 0) process.exit(1);
}

// Every contender is an ESM script given to `node --input-type=module -e`, so all pay the same start-up.
const importing = (specifier) =>
  `const t = performance.now(); await import(${JSON.stringify(specifier)}); ` +
  'process.stdout.write(String(performance.now() - t));';
const contenders = {
  'node -e 0': 'process.stdout.write("0");',
  // The floor of any import: Node's ESM loader starting up for one empty module.
  'empty module': importing('data:text/javascript,export default 0'),
  'inr-payouts': importing(pathToFileURL(`${root}dist/index.js`).href),
  'inr-payouts/webhooks': importing(pathToFileURL(`${root}dist/webhooks.js`).href),
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
  if (result.status !== 0) throw new Error(`cold-import: ${name} failed:\n${result.stderr}`);
  return { ms, inside: Number(String(result.stdout)) };
}

for (const name of names) runOnce(name); // warm the file system cache
for (let run = 0; run < runs; run++) {
  for (let i = 0; i < names.length; i++) {
    const name = names[(run + i) % names.length];
    const timing = runOnce(name);
    wall[name].push(timing.ms);
    inside[name].push(timing.inside);
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const base = median(wall['node -e 0']);
const over = (name) => median(wall[name]) - base;

console.log(`cold import, median of ${runs} fresh processes each (Node ${process.version}):`);
for (const name of names) {
  const extra =
    name === 'node -e 0'
      ? ''
      : `  (+${over(name).toFixed(1)} ms over node -e 0; the import itself ${median(inside[name]).toFixed(1)} ms)`;
  console.log(`  ${name.padEnd(22)} ${median(wall[name]).toFixed(1).padStart(7)} ms${extra}`);
}
const clientRatio = over('inr-payouts') / over('stripe');
const openaiRatio = over('inr-payouts') / over('openai');
const insideRatio = median(inside['inr-payouts']) / median(inside.stripe);
const webhooksOver = over('inr-payouts/webhooks');
const verdict = (met) => (met ? 'MET' : 'NOT MET');
console.log(
  `  client vs stripe: ${clientRatio.toFixed(2)}x over node -e 0, ${insideRatio.toFixed(2)}x timed inside ` +
    `(bar <= ${CLIENT_BAR_RATIO}x) ${verdict(clientRatio <= CLIENT_BAR_RATIO)}`,
);
console.log(`  client vs openai: ${openaiRatio.toFixed(2)}x over node -e 0`);
console.log(
  `  webhooks entry: +${webhooksOver.toFixed(1)} ms over node -e 0, ${median(inside['inr-payouts/webhooks']).toFixed(1)} ms ` +
    `timed inside (bar <= ${WEBHOOKS_BAR_MS} ms over node -e 0) ${verdict(webhooksOver <= WEBHOOKS_BAR_MS)}`,
);
if (enforceWebhooks && webhooksOver > WEBHOOKS_BAR_MS) {
  console.error(
    `cold-import: the webhooks entry takes ${webhooksOver.toFixed(1)} ms over node -e 0 (bar ${WEBHOOKS_BAR_MS} ms).`,
  );
  process.exit(1);
}
