// `npm run bench:server`: the standalone mock server (dist/bin/mock-server.js) against the limit of the
// platform, contenders interleaved in one run:
// - throughput on GET /v2/account (autocannon, 10 connections) against a bare node:http server answering the same
//   status, headers and bytes (captured from the mock's own answer); target: at least 0.5x the bare server;
// - start-up to first answer (spawn → first HTTP answer) against the same bare server; target: under 2x.
// With --prism, Prism's mock server (silent, a one-operation OpenAPI document with the same answer; installed on
// first use into .runtimes/prism, git-ignored, never a dev dependency) runs beside them, for reference.
// Options: --rounds <n> (throughput rounds, default 5: the median of three moved by 0.1x between runs),
// --seconds <n> (per run, default 5), --starts <n> (start-up rounds, default 10), --prism. Prints PASS or FAIL per
// target; exits 1 on a FAIL (2 if it could not run).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { freePort, installInto, launch, median, root, rotating } from './support.mjs';

const bin = join(root, 'dist/bin/mock-server.js');
const prismPrefix = join(root, '.runtimes/prism');
const prismBin = join(prismPrefix, 'node_modules/@stoplight/prism-cli/dist/index.js');

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '5' },
    starts: { type: 'string', default: '10' },
    prism: { type: 'boolean', default: false },
  },
});
const WITH_PRISM = values.prism;
const ROUNDS = Number(values.rounds);
const SECONDS = Number(values.seconds);
const STARTS = Number(values.starts);

function ensurePrism() {
  if (existsSync(prismBin)) return;
  rmSync(prismPrefix, { recursive: true, force: true });
  installInto(prismPrefix, ['@stoplight/prism-cli@5']);
}

/** Polls until the server gives any HTTP answer; resolves with the ms since `started`. */
async function firstAnswer(url, started, child) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited with ${child.exitCode}`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      return performance.now() - started;
    } catch {
      await new Promise((r) => setTimeout(r, 2));
    }
  }
}

const work = mkdtempSync(join(tmpdir(), 'inr-payouts-bench-server-'));
const bare = join(work, 'bare.mjs');
const answerFile = join(work, 'answer.json');
const prismDocument = join(work, 'openapi.json');
// The bare server: node:http answering every request with one recorded answer (status, headers, body), as fast
// as Node can: the limit any server written on node:http meets.
writeFileSync(
  bare,
  `import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
const { status, headers, body } = JSON.parse(readFileSync(process.argv[3], 'utf8'));
const bytes = Buffer.from(body);
createServer((req, res) => {
  req.resume();
  res.writeHead(status, headers).end(bytes);
}).listen(Number(process.argv[2]), '127.0.0.1');
`,
);
// Until the mock's answer is recorded, start-up and warm-up use a placeholder of the same shape.
writeFileSync(
  answerFile,
  JSON.stringify({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"success":true}' }),
);

/** Headers Node sets per response itself; every other header of the mock's answer the bare server repeats. */
const PER_RESPONSE = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/** The contenders' arguments to node for a port. */
const starters = {
  bare: (port) => [bare, String(port), answerFile],
  mock: (port) => [bin, '--port', String(port), '--speed', 'manual'],
  prism: (port) => [prismBin, 'mock', prismDocument, '-p', String(port), '-h', '127.0.0.1', '-v', 'silent'],
};

async function start(name) {
  const port = await freePort();
  const started = performance.now();
  const server = launch(process.execPath, starters[name](port), { cwd: work });
  const url = `http://127.0.0.1:${port}`;
  const ms = await firstAnswer(`${url}/v2/account`, started, server.child);
  return { ...server, url, ms };
}

async function load(url, headers) {
  const result = await autocannon({ url: `${url}/v2/account`, connections: 10, duration: SECONDS, headers });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers and ${result.errors} errors under load`);
  }
  return { rps: result.requests.average, p99: result.latency.p99 };
}

/** The mock's answer to GET /v2/account, written for the bare server: the same status, headers and bytes. */
async function recordAnswer(url, headers) {
  const response = await fetch(`${url}/v2/account`, { headers });
  const body = await response.text();
  const kept = Object.fromEntries([...response.headers].filter(([name]) => !PER_RESPONSE.has(name)));
  writeFileSync(answerFile, JSON.stringify({ status: response.status, headers: kept, body }));
  return { status: response.status, body };
}

/** Prism serving a one-operation document whose example is the mock's answer. */
async function startPrism(account) {
  writeFileSync(
    prismDocument,
    JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'account', version: '1' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
      paths: {
        '/v2/account': {
          get: {
            responses: {
              200: {
                description: 'The account',
                content: { 'application/json': { schema: { type: 'object' }, example: account } },
              },
            },
          },
        },
      },
    }),
  );
  return start('prism');
}

/** Throughput of the mock and the bare server (and Prism): all up, runs alternating, after a warm-up run each. */
async function throughput() {
  const mock = await start('mock');
  const key = /sandbox API key: (\S+)/.exec(mock.seen.output)?.[1];
  if (!key) throw new Error(`the mock printed no key:\n${mock.seen.output}`);
  // The account's per-minute rate limit would answer 429 under load.
  await fetch(`${mock.url}/__mock/accounts/update`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ limits: { rateLimit: 1_000_000_000 } }),
  });
  const headers = { authorization: `Bearer ${key}` };
  const answer = await recordAnswer(mock.url, headers);
  if (answer.status !== 200) throw new Error(`GET /v2/account answered ${answer.status}: ${answer.body}`);
  const bareServer = await start('bare');
  const check = await fetch(`${bareServer.url}/v2/account`);
  if ((await check.text()) !== answer.body) throw new Error('the bare server does not answer the same bytes');
  const servers = { mock, bare: bareServer };
  if (WITH_PRISM) servers.prism = await startPrism(JSON.parse(answer.body));
  const names = Object.keys(servers);
  for (const name of names) await load(servers[name].url, headers);
  const runs = Object.fromEntries(names.map((name) => [name, []]));
  for (const name of rotating(names, ROUNDS)) runs[name].push(await load(servers[name].url, headers));
  for (const server of Object.values(servers)) await server.stop('SIGKILL');
  const figures = (name) => ({
    rps: median(runs[name].map((r) => r.rps)),
    p99: median(runs[name].map((r) => r.p99)),
    // Per-round ratio to the bare server, which ran in the same round.
    ratios: runs[name].map((r, i) => r.rps / runs.bare[i].rps),
  });
  return Object.fromEntries(names.map((name) => [name, figures(name)]));
}

let failed = 0;
try {
  if (!existsSync(bin)) {
    console.error('dist/bin/mock-server.js is missing: run `npm run build` first');
    process.exit(2);
  }
  if (WITH_PRISM) ensurePrism();

  // Throughput first: it records the mock's answer, which the bare server then sends at start-up too.
  const served = await throughput();

  // Start-up: fresh processes, bare and mock alternating (which goes first alternates too).
  const startups = { bare: [], mock: [] };
  for (let i = 0; i < STARTS; i++) {
    for (const name of i % 2 ? ['mock', 'bare'] : ['bare', 'mock']) {
      const server = await start(name);
      startups[name].push(server.ms);
      await server.stop('SIGKILL');
    }
  }
  const startupRatios = startups.mock.map((ms, i) => ms / startups.bare[i]);
  const range = (xs) => `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}x`;

  console.log(`\nstandalone server (${ROUNDS} x ${SECONDS} s per contender, 10 connections, medians)`);
  for (const [name, f] of Object.entries(served)) {
    console.log(
      `  GET /v2/account, ${name.padEnd(5)} ${f.rps.toFixed(0).padStart(7)} req/s (p99 ${f.p99} ms)`,
    );
  }
  console.log(
    `  start-up to first answer (${STARTS} starts each): mock ${median(startups.mock).toFixed(0)} ms, ` +
      `bare node:http ${median(startups.bare).toFixed(0)} ms`,
  );
  console.log('\nperformance targets (npm run bench:server; per-round ratios, median and range)');
  const targets = [
    ['throughput on GET /v2/account, mock / bare node:http', served.mock.ratios, '>= 0.5x', (r) => r >= 0.5],
    ['start-up to first answer, mock / bare node:http', startupRatios, '< 2x', (r) => r < 2],
  ];
  for (const [label, ratios, target, meets] of targets) {
    const value = median(ratios);
    if (!meets(value)) failed += 1;
    const line = `${label} (rounds ${range(ratios)})`.padEnd(70);
    console.log(
      `  ${meets(value) ? 'PASS' : 'FAIL'}  ${line} ${`${value.toFixed(2)}x`.padStart(7)}  target ${target}`,
    );
  }
  if (served.prism) {
    const ratio = served.mock.rps / served.prism.rps;
    console.log(`  ----  throughput, mock / Prism (silent), for reference: ${ratio.toFixed(2)}x`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exitCode = failed === 0 ? 0 : 1;
