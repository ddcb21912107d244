// The cost of --state-file: the p99 latency of a write (POST /v2/users over HTTP) with and without a state
// file, with 1,000 and 100,000 transactions stored (bar: at 100k, at most 2x the p99 without a file), and how
// long a restart of the real bin with the 100k state takes to answer its first request (bar: 5 s). The four
// servers are measured interleaved (rounds of a few writes each, rotating order) so load on a shared machine
// falls on all alike.
// Run: npx tsx scripts/bench-state-file.ts
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStateFile, type StateFile } from '../mock/server/persistence.js';
import { type RunningMockServer, startMockServer } from '../mock/server/server.js';
import { seedTransactions } from '../test/bench/mock-seed.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'inr-payouts-bench-'));
const ROUNDS = 60;
const PER_ROUND = 10;

interface Contender {
  name: string;
  server: RunningMockServer;
  stateFile?: StateFile;
  samples: number[];
  mobile: number;
}

async function contender(name: string, transactions: number, file?: string): Promise<Contender> {
  const holder: { stateFile?: StateFile } = {};
  const server = await startMockServer({
    port: 0,
    service: { seed: name },
    beforeAnswer: () => holder.stateFile?.save(),
  });
  await seedTransactions(server.service, transactions);
  if (file) holder.stateFile = openStateFile(server.service, file);
  return { name, server, stateFile: holder.stateFile, samples: [], mobile: 9_100_000_000 };
}

async function write(c: Contender): Promise<void> {
  c.mobile += 1;
  const start = performance.now();
  const response = await fetch(`${c.server.url}/v2/users`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${c.server.service.sandboxKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ mobile: String(c.mobile) }),
  });
  await response.arrayBuffer();
  c.samples.push(performance.now() - start);
  if (response.status !== 201) throw new Error(`${c.name}: the write answered ${response.status}`);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function firstAnswerAfterRestart(file: string): Promise<number> {
  const start = performance.now();
  const child = spawn(
    `${root}node_modules/.bin/tsx`,
    ['mock/bin/mock-server.ts', '--port', '0', '--speed', 'manual', '--state-file', file],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}): ${out}`)));
  });
  const response = await fetch(`${url}/__mock/clock/now`);
  await response.arrayBuffer();
  const elapsed = performance.now() - start;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  return elapsed;
}

const contenders = [
  await contender('small-memory', 1_000),
  await contender('small-file', 1_000, join(dir, 'small.json')),
  await contender('large-memory', 100_000),
  await contender('large-file', 100_000, join(dir, 'large.json')),
];
for (const c of contenders) for (let i = 0; i < 20; i++) await write(c); // warm-up
for (const c of contenders) c.samples.length = 0;
for (let round = 0; round < ROUNDS; round++) {
  for (let i = 0; i < contenders.length; i++) {
    const c = contenders[(round + i) % contenders.length];
    if (c) for (let k = 0; k < PER_ROUND; k++) await write(c);
  }
}
const p99 = Object.fromEntries(contenders.map((c) => [c.name, percentile(c.samples, 99)]));
const p50 = Object.fromEntries(contenders.map((c) => [c.name, percentile(c.samples, 50)]));
console.table(
  contenders.map((c) => ({
    contender: c.name,
    writes: c.samples.length,
    p50ms: p50[c.name],
    p99ms: p99[c.name],
  })),
);
const ratio = (a: string, b: string) => ((p99[a] ?? Number.NaN) / (p99[b] ?? Number.NaN)).toFixed(2);
console.log(`p99 with --state-file / without, 1k transactions:   ${ratio('small-file', 'small-memory')}x`);
console.log(
  `p99 with --state-file / without, 100k transactions: ${ratio('large-file', 'large-memory')}x (bar <= 2x)`,
);
for (const c of contenders) {
  c.stateFile?.close();
  await c.server.close();
}
const restart = await firstAnswerAfterRestart(join(dir, 'large.json'));
console.log(
  `restart with 100k transactions, first answer after: ${(restart / 1000).toFixed(2)} s (bar <= 5 s)`,
);
rmSync(dir, { recursive: true, force: true });
