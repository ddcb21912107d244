#!/usr/bin/env node
// Cold import time of each entry: fresh `node` processes that import dist/index.js, dist/webhooks.js and
// stripe (for the client's ratio), against a process that imports nothing. Runs interleaved (rotating order) so
// a burst of load on a shared machine lands on every contender alike; prints medians over N runs.
// Quality bars (PRODUCT.md): client <= 0.6x stripe's cold import; webhooks entry <= 10 ms over `node -e 0`.
// Usage: node scripts/cold-import.mjs [--runs N] [--enforce-webhooks]   (needs `npm run build` first)
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const runsFlag = args.indexOf('--runs');
const runs = runsFlag >= 0 ? Number(args[runsFlag + 1]) : 21;
const enforceWebhooks = args.includes('--enforce-webhooks');
const WEBHOOKS_BAR_MS = 10;
const CLIENT_BAR_RATIO = 0.6;

const entry = (path) => pathToFileURL(`${root}${path}`).href;
for (const path of ['dist/index.js', 'dist/webhooks.js']) {
  if (!existsSync(`${root}${path}`)) {
    console.error(`cold-import: ${path} is missing; run \`npm run build\` first.`);
    process.exit(1);
  }
}

// Each contender is an ESM script given to `node --input-type=module -e`, so all pay the same start-up.
const contenders = {
  'node -e 0': '0',
  'inr-payouts': `await import(${JSON.stringify(entry('dist/index.js'))})`,
  'inr-payouts/webhooks': `await import(${JSON.stringify(entry('dist/webhooks.js'))})`,
  stripe: `await import('stripe')`,
};
const names = Object.keys(contenders);
const samples = Object.fromEntries(names.map((n) => [n, []]));

function timeOnce(script) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: root,
    stdio: 'pipe',
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`cold-import: ${script} failed:\n${result.stderr}`);
  return ms;
}

for (const name of names) timeOnce(contenders[name]); // warm the file system cache
for (let run = 0; run < runs; run++) {
  for (let i = 0; i < names.length; i++) {
    const name = names[(run + i) % names.length];
    samples[name].push(timeOnce(contenders[name]));
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const base = median(samples['node -e 0']);
const over = (name) => median(samples[name]) - base;

console.log(`cold import, median of ${runs} fresh processes each (Node ${process.version}):`);
for (const name of names) {
  const extra = name === 'node -e 0' ? '' : `  (+${over(name).toFixed(1)} ms over node -e 0)`;
  console.log(`  ${name.padEnd(22)} ${median(samples[name]).toFixed(1).padStart(7)} ms${extra}`);
}
const clientRatio = over('inr-payouts') / over('stripe');
const webhooksOver = over('inr-payouts/webhooks');
console.log(
  `  client vs stripe (import time over node -e 0): ${clientRatio.toFixed(2)}x (bar <= ${CLIENT_BAR_RATIO}x) ${clientRatio <= CLIENT_BAR_RATIO ? 'MET' : 'NOT MET'}`,
);
console.log(
  `  webhooks entry over node -e 0: ${webhooksOver.toFixed(1)} ms (bar <= ${WEBHOOKS_BAR_MS} ms) ${webhooksOver <= WEBHOOKS_BAR_MS ? 'MET' : 'NOT MET'}`,
);
if (enforceWebhooks && webhooksOver > WEBHOOKS_BAR_MS) {
  console.error(
    `cold-import: the webhooks entry takes ${webhooksOver.toFixed(1)} ms over node -e 0 (bar ${WEBHOOKS_BAR_MS} ms).`,
  );
  process.exit(1);
}
