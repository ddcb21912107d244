// `npm run bench:server`: the standalone mock server (dist/bin/mock-server.js) against its peers, contenders
// interleaved in one run:
// - throughput on GET /v2/account (autocannon, 10 connections) against Prism's mock server (silent) serving a
//   one-operation OpenAPI document with the same answer; target: at least Prism's requests per second;
// - start-up to first answer (spawn → first HTTP answer) against a bare node:http server; target: under 2x.
// Prism (@stoplight/prism-cli) is installed on first use into .runtimes/prism (git-ignored), never as a dev
// dependency. Options: --rounds <n> (throughput rounds, default 3), --seconds <n> (per run, default 5),
// --starts <n> (start-up rounds, default 10), --no-prism (start-up only: installs and runs no Prism, and reports the
// throughput target as not measured).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'dist/bin/mock-server.js');
const prismPrefix = join(root, '.runtimes/prism');
const prismBin = join(prismPrefix, 'node_modules/@stoplight/prism-cli/dist/index.js');

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '5' },
    starts: { type: 'string', default: '10' },
    'no-prism': { type: 'boolean', default: false },
  },
});
const WITH_PRISM = !values['no-prism'];
const ROUNDS = Number(values.rounds);
const SECONDS = Number(values.seconds);
const STARTS = Number(values.starts);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

function run(command, args, options = {}) {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let output = '';
    child.stdout.on('data', (c) => {
      output += c;
    });
    child.stderr.on('data', (c) => {
      output += c;
    });
    child.on('close', (code) => done({ code, output }));
  });
}

async function ensurePrism() {
  if (existsSync(prismBin)) return;
  console.log('installing @stoplight/prism-cli@5 into .runtimes/prism ...');
  rmSync(prismPrefix, { recursive: true, force: true });
  await run('mkdir', ['-p', prismPrefix]);
  writeFileSync(
    join(prismPrefix, 'package.json'),
    '{ "name": "inr-payouts-bench-prism", "private": true }\n',
  );
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const installed = await run(npm, [
    'install',
    '--prefix',
    prismPrefix,
    '--no-audit',
    '--no-fund',
    '@stoplight/prism-cli@5',
  ]);
  if (installed.code !== 0) throw new Error(`installing Prism failed:\n${installed.output}`);
}

function freePort() {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
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

function stop(child) {
  return new Promise((done) => {
    if (child.exitCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGKILL');
  });
}

const work = mkdtempSync(join(tmpdir(), 'inr-payouts-bench-server-'));
const bare = join(work, 'bare.mjs');
writeFileSync(
  bare,
  `import { createServer } from 'node:http';
const body = JSON.stringify({ success: true });
createServer((req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body)).listen(
  Number(process.argv[2]),
  '127.0.0.1',
);
`,
);

/** The contenders' commands for a port. */
const starters = {
  bare: (port) => [process.execPath, [bare, String(port)]],
  mock: (port) => [process.execPath, [bin, '--port', String(port), '--speed', 'manual']],
  prism: (port) => [
    process.execPath,
    [prismBin, 'mock', join(work, 'openapi.json'), '-p', String(port), '-h', '127.0.0.1', '-v', 'silent'],
  ],
};

async function start(name) {
  const port = await freePort();
  const [command, args] = starters[name](port);
  const started = performance.now();
  const child = spawn(command, args, { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c) => {
    output += c;
  });
  child.stderr.on('data', (c) => {
    output += c;
  });
  const url = `http://127.0.0.1:${port}`;
  const ms = await firstAnswer(`${url}/v2/account`, started, child);
  return { child, url, ms, output: () => output };
}

async function load(url, headers) {
  const result = await autocannon({ url: `${url}/v2/account`, connections: 10, duration: SECONDS, headers });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers and ${result.errors} errors under load`);
  }
  return { rps: result.requests.average, p99: result.latency.p99 };
}

/** One target's line; `ok` undefined when the figure was not measured in this run. */
function line(label, value, target, ok) {
  const verdict = ok === undefined ? '----' : ok ? 'PASS' : 'FAIL';
  console.log(`  ${verdict}  ${label.padEnd(50)} ${value.padStart(9)}  target ${target}`);
}

/** Throughput of the mock and Prism: both servers up, runs alternating, after a warm-up run each. */
async function throughput() {
  const mock = await start('mock');
  const key = /sandbox API key: (\S+)/.exec(mock.output())?.[1];
  if (!key) throw new Error(`the mock printed no key:\n${mock.output()}`);
  // The account's per-minute rate limit would answer 429 under load.
  await fetch(`${mock.url}/__mock/accounts/update`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ limits: { rateLimit: 1_000_000_000 } }),
  });
  const account = await (
    await fetch(`${mock.url}/v2/account`, { headers: { authorization: `Bearer ${key}` } })
  ).json();
  writeFileSync(
    join(work, 'openapi.json'),
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
  const prism = await start('prism');
  const headers = { authorization: `Bearer ${key}` };
  const contenders = { mock: mock.url, prism: prism.url };
  for (const url of Object.values(contenders)) await load(url, headers);
  const runs = { mock: [], prism: [] };
  for (let i = 0; i < ROUNDS; i++) {
    for (const name of i % 2 ? ['prism', 'mock'] : ['mock', 'prism'])
      runs[name].push(await load(contenders[name], headers));
  }
  await stop(mock.child);
  await stop(prism.child);
  const rps = (name) => median(runs[name].map((r) => r.rps));
  const p99 = (name) => median(runs[name].map((r) => r.p99));
  return { mock: { rps: rps('mock'), p99: p99('mock') }, prism: { rps: rps('prism'), p99: p99('prism') } };
}

try {
  if (!existsSync(bin)) throw new Error('dist/bin/mock-server.js is missing: run `npm run build` first');
  if (WITH_PRISM) await ensurePrism();

  // Start-up: fresh processes, bare and mock alternating (which goes first alternates too).
  const startups = { bare: [], mock: [] };
  for (let i = 0; i < STARTS; i++) {
    for (const name of i % 2 ? ['mock', 'bare'] : ['bare', 'mock']) {
      const server = await start(name);
      startups[name].push(server.ms);
      await stop(server.child);
    }
  }

  const served = WITH_PRISM ? await throughput() : undefined;
  const startupMock = median(startups.mock);
  const startupBare = median(startups.bare);
  const startup = startupMock / startupBare;
  if (served) {
    console.log(`\nstandalone server (${ROUNDS} x ${SECONDS} s per contender, 10 connections, medians)`);
    console.log(
      `  GET /v2/account: mock ${served.mock.rps.toFixed(0)} req/s (p99 ${served.mock.p99} ms), Prism ${served.prism.rps.toFixed(0)} req/s (p99 ${served.prism.p99} ms)`,
    );
  } else {
    console.log('\nstandalone server (--no-prism: start-up only)');
  }
  console.log(
    `  start-up to first answer (${STARTS} starts each): mock ${startupMock.toFixed(0)} ms, bare node:http ${startupBare.toFixed(0)} ms`,
  );
  console.log('\nperformance targets (npm run bench:server)');
  if (served) {
    const ratio = served.mock.rps / served.prism.rps;
    line('throughput on GET /v2/account, mock / Prism (silent)', `${ratio.toFixed(2)}x`, '>= 1x', ratio >= 1);
  } else {
    line('throughput on GET /v2/account, mock / Prism (silent)', 'not run', '>= 1x (without --no-prism)');
  }
  line('start-up to first answer, mock / bare node:http', `${startup.toFixed(2)}x`, '< 2x', startup < 2);
} finally {
  rmSync(work, { recursive: true, force: true });
}
