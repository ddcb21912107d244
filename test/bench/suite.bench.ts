// A partner's test suite as partners run it: 50 Vitest files, default isolation (each file imports its modules
// afresh), each creating a mock and running one transaction flow through `mock.createClient()` (mock.fetch, no
// msw), against the same 50 files whose client is answered by a trivial msw handler (canned JSON, `setupServer`).
// Both suites are generated at bench time into a temporary project whose node_modules link this package (its
// built dist/, as a partner installs it), msw and Vitest, and run by `vitest run` in a child process, alternating.
// Each file also times its own imports (the mock's entry; the client, msw and msw/node), written to a log.
// Targets, same run: the mock's suite at most 1x the trivial msw handler's (wall time of `vitest run`), and the
// mock's per-file import at most 1x the trivial suite's (the client, msw and msw/node).
// Run: npm run build && npm run bench -- test/bench/suite.bench.ts
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, bench, describe } from 'vitest';
import { createMockService } from '../../mock/index.js';
import { median, recordTarget, verdict } from './ratio.js';
import { TARGETS } from './targets.js';

const FILES = 50;
const root = fileURLToPath(new URL('../../', import.meta.url));
if (!existsSync(join(root, 'dist/mock.js'))) {
  throw new Error('test/bench/suite.bench.ts runs the built package: run `npm run build` first.');
}

const FLOW = {
  amount: '100',
  asset: 'USDC',
  network: 'base',
} as const;

/** The answers the trivial handlers give: the mock's own, recorded once from the same flow. */
async function recordAnswers(): Promise<{
  baseUrl: string;
  apiKey: string;
  created: string;
  retrieved: string;
}> {
  const mock = createMockService({ seed: 'suite' });
  const bodies: string[] = [];
  const client = mock.createClient({
    fetch: async (input, init) => {
      const response = await mock.fetch(input, init);
      bodies.push(await response.clone().text());
      return response;
    },
  });
  const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
  const { transactionId } = await client.transactions.create({ userId, ...FLOW });
  await mock.clock.advance(mock.helpers.transactions.simulateDeposit({ transactionId }));
  await mock.clock.advance('1m');
  await client.transactions.retrieve(transactionId);
  const [created, retrieved] = [bodies[0], bodies.at(-1)];
  if (!created || !retrieved) throw new Error('the flow recorded no answers');
  return { baseUrl: mock.baseUrl, apiKey: mock.sandboxKey, created, retrieved };
}

const mockFile = (n: number) => `import { appendFileSync } from 'node:fs';
import { afterAll, expect, test } from 'vitest';

const started = performance.now();
const { createMockService } = await import('inr-payouts/mock');
const importMs = performance.now() - started;
afterAll(() => appendFileSync(process.env.SUITE_LOG, JSON.stringify({ suite: 'mock', importMs }) + '\\n'));

test('a payout completes (file ${n})', async () => {
  const mock = createMockService({ seed: 'suite-${n}' });
  const client = mock.createClient();
  const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
  const { transactionId } = await client.transactions.create({ userId, ...${JSON.stringify(FLOW)} });
  await mock.clock.advance(mock.helpers.transactions.simulateDeposit({ transactionId }));
  await mock.clock.advance('1m');
  expect((await client.transactions.retrieve(transactionId)).transaction.status).toBe('completed');
});
`;

const trivialFile = (n: number) => `import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';

const started = performance.now();
const { PayoutClient } = await import('inr-payouts');
const { HttpResponse, http } = await import('msw');
const { setupServer } = await import('msw/node');
const importMs = performance.now() - started;
afterAll(() => appendFileSync(process.env.SUITE_LOG, JSON.stringify({ suite: 'trivial', importMs }) + '\\n'));

const answers = JSON.parse(readFileSync(new URL('./answers.json', import.meta.url), 'utf8'));
const json = (body, status) => new HttpResponse(body, { status, headers: { 'content-type': 'application/json' } });
const server = setupServer(
  http.post(answers.baseUrl + '/v2/transactions', () => json(answers.created, 201)),
  http.get(answers.baseUrl + '/v2/transactions/:id', () => json(answers.retrieved, 200)),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

test('a payout completes (file ${n})', async () => {
  const client = new PayoutClient({ apiKey: answers.apiKey, baseUrl: answers.baseUrl, maxRetries: 0 });
  const { transactionId } = await client.transactions.create({ userId: 'usr_suite', ...${JSON.stringify(FLOW)} });
  expect((await client.transactions.retrieve(transactionId)).transaction.status).toBe('completed');
});
`;

type Suite = 'mock' | 'trivial';
const work = mkdtempSync(join(tmpdir(), 'inr-payouts-suite-'));
const log = join(work, 'imports.jsonl');
const projects: Record<Suite, string> = { mock: join(work, 'mock'), trivial: join(work, 'trivial') };
const wall: Record<Suite, number[]> = { mock: [], trivial: [] };
let ready: Promise<void> | undefined;

/** Two partner projects: package.json, a Vitest config with its defaults, node_modules linked, 50 files each. */
async function generate(): Promise<void> {
  const answers = await recordAnswers();
  for (const suite of ['mock', 'trivial'] as const) {
    const dir = projects[suite];
    mkdirSync(join(dir, 'node_modules'), { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{ "private": true, "type": "module" }\n');
    // Vitest's defaults (isolation on); symlinks kept, so Vitest sees the package under node_modules and
    // leaves it to Node, as in a partner's install.
    writeFileSync(join(dir, 'vitest.config.js'), 'export default { resolve: { preserveSymlinks: true } };\n');
    writeFileSync(join(dir, 'answers.json'), JSON.stringify(answers));
    symlinkSync(root, join(dir, 'node_modules/inr-payouts'), 'dir');
    for (const name of ['msw', 'vitest']) {
      symlinkSync(join(root, 'node_modules', name), join(dir, 'node_modules', name), 'dir');
    }
    for (let n = 1; n <= FILES; n++) {
      writeFileSync(join(dir, `flow-${n}.test.js`), suite === 'mock' ? mockFile(n) : trivialFile(n));
    }
  }
}

const childEnv = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_ENV'),
);

/** One `vitest run` of a suite; its wall time in ms. */
function runSuite(suite: Suite): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run'], {
    cwd: projects[suite],
    // The child is a partner's own run, not a worker of this one.
    env: { ...childEnv, SUITE_LOG: log },
    encoding: 'utf8',
  });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`the ${suite} suite failed:\n${run.stdout}\n${run.stderr}`);
  wall[suite].push(ms);
  return ms;
}

/** One round: both suites, the first of them alternating from round to round. */
async function round(): Promise<void> {
  ready ??= generate();
  await ready;
  const order: Suite[] = wall.mock.length % 2 ? ['trivial', 'mock'] : ['mock', 'trivial'];
  for (const suite of order) runSuite(suite);
}

afterAll(() => {
  const rounds = Math.min(wall.mock.length, wall.trivial.length);
  // A failed round (its error already reported) leaves nothing to compare: no figure, rather than a wrong one.
  if (rounds === 0) {
    rmSync(work, { recursive: true, force: true });
    return;
  }
  const ratios = Array.from({ length: rounds }, (_, i) => (wall.mock[i] ?? 0) / (wall.trivial[i] ?? 1));
  const imports: Record<Suite, number[]> = { mock: [], trivial: [] };
  for (const line of readFileSync(log, 'utf8').split('\n').filter(Boolean)) {
    const { suite, importMs } = JSON.parse(line) as { suite: Suite; importMs: number };
    imports[suite].push(importMs);
  }
  const suiteRatio = median(ratios);
  const importRatio = median(imports.mock) / median(imports.trivial);
  const suiteResult = verdict('cost', suiteRatio, TARGETS.suite.bar);
  const importResult = verdict('cost', importRatio, TARGETS.suiteImport.bar);
  recordTarget({ id: TARGETS.suite.id, value: suiteRatio, result: suiteResult });
  recordTarget({ id: TARGETS.suiteImport.id, value: importRatio, result: importResult });
  const seconds = (values: number[]) => values.map((ms) => (ms / 1000).toFixed(1)).join(', ');
  console.log(
    `\na ${FILES}-file Vitest suite, default isolation (${rounds} runs each, alternating)\n` +
      `  ${TARGETS.suite.label}: ${suiteRatio.toFixed(2)}x (per-run ratios ${ratios.map((r) => r.toFixed(2)).join(', ')}; ` +
      `target <= ${TARGETS.suite.bar}x) ${suiteResult}  [mock ${seconds(wall.mock)} s, trivial msw ${seconds(wall.trivial)} s]\n` +
      `  ${TARGETS.suiteImport.label}: ${importRatio.toFixed(2)}x (target <= ${TARGETS.suiteImport.bar}x) ${importResult}  ` +
      `[per file, medians: inr-payouts/mock ${median(imports.mock).toFixed(1)} ms; inr-payouts + msw + msw/node ` +
      `${median(imports.trivial).toFixed(1)} ms]\n`,
  );
  rmSync(work, { recursive: true, force: true });
}, 30 * 60_000);

describe(`a ${FILES}-file Vitest suite (vitest run, default isolation)`, () => {
  // Each iteration is one round of both suites (about a minute on 2 shared cores); the ratio is the median of
  // the rounds' ratios.
  bench('a round: the mock suite (mock.createClient()) and the trivial msw suite', round, {
    iterations: 2,
    warmupIterations: 0,
    time: 0,
    warmupTime: 0,
  });
});
