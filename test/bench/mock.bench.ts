// The mock's benchmarks (issue 9): the activity feed and the webhook event list with 1,000 vs 100,000
// transactions in the store (target: flat, the 100k query no slower than 1.5x the 1k one), and how many complete
// transaction lifecycles per second the virtual clock can drive (create → deposit → 128 confirmations →
// payout → completed, on polygon; target: at least 1,000 per second, the median of several batches of
// 1,000; the first and the last confirmation run a timer, the blocks between are counted when read).
// Requests go through the service's dispatch (no msw: test/bench/mock-request.bench.ts measures that).
// Run: npm run bench -- test/bench/mock.bench.ts
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { createMockService, type MockService } from '../../mock/index.js';
import { call, seedTransactions } from './mock-seed.js';
import { measureInterleaved, median, printRate, printRatios } from './ratio.js';
import { TARGETS } from './targets.js';

const SMALL = 1_000;
const LARGE = 100_000;
/** Lifecycles driven together in one measured batch. */
const LIFECYCLES = 1_000;
/** Batches measured after the bench table has warmed the code; the median is reported. */
const LIFECYCLE_BATCHES = 5;

let small: MockService;
let large: MockService;

async function read(mock: MockService, path: string): Promise<void> {
  const response = await call(mock, 'GET', path);
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
  await response.json();
}

const contenders = {
  activitySmall: () => read(small, '/v2/account/activity?limit=50'),
  activityLarge: () => read(large, '/v2/account/activity?limit=50'),
  webhooksSmall: () => read(small, '/v2/webhooks?limit=50'),
  webhooksLarge: () => read(large, '/v2/webhooks?limit=50'),
  accountSmall: () => read(small, '/v2/account'),
  accountLarge: () => read(large, '/v2/account'),
};

let batch = 0;
/** `count` full lifecycles on a fresh service; resolves with how many completed. */
async function lifecycles(count: number): Promise<number> {
  batch += 1;
  const mock = createMockService({ seed: `lifecycles-${batch}` });
  mock.helpers.accounts.update({ limits: { rateLimit: 1_000_000 } });
  for (let i = 0; i < count; i++) {
    const { userId } = mock.helpers.users.seedVerified({ mobile: `9${String(i).padStart(9, '0')}` });
    const created = await call(mock, 'POST', '/v2/transactions', {
      userId,
      amount: '100',
      asset: 'USDT',
      network: 'polygon',
    });
    const { data } = (await created.json()) as { data: { transactionId: string } };
    mock.helpers.transactions.simulateDeposit({ transactionId: data.transactionId });
  }
  // Every confirmation, the payout's start and the bank's answer, in virtual time.
  await mock.clock.advance(mock.helpers.transactions.confirmationMs('polygon') + 11_000);
  return Object.values(mock.state.transactions.byId).filter((t) => t.status === 'completed').length;
}

beforeAll(async () => {
  small = createMockService({ seed: 'bench-small' });
  large = createMockService({ seed: 'bench-large' });
  await seedTransactions(small, SMALL);
  await seedTransactions(large, LARGE);
  // The first list read builds the event index; that one-off is not what is measured.
  for (const read of Object.values(contenders)) await read();
}, 120_000);

afterAll(async () => {
  const micros = await measureInterleaved(contenders, { rounds: 30, batch: 20 });
  printRatios(
    `mock queries, ${LARGE.toLocaleString('en')} vs ${SMALL.toLocaleString('en')} transactions in the store`,
    micros,
    [
      { target: TARGETS.activityFlat, subject: 'activityLarge', baseline: 'activitySmall' },
      { target: TARGETS.webhooksFlat, subject: 'webhooksLarge', baseline: 'webhooksSmall' },
      {
        label: 'GET /v2/account (its volume), 100k vs 1k transactions stored',
        subject: 'accountLarge',
        baseline: 'accountSmall',
        kind: 'cost',
        bar: TARGETS.activityFlat.bar,
      },
    ],
  );
  const rates: number[] = [];
  for (let i = 0; i < LIFECYCLE_BATCHES; i++) {
    const started = performance.now();
    const completed = await lifecycles(LIFECYCLES);
    const seconds = (performance.now() - started) / 1000;
    if (completed !== LIFECYCLES) throw new Error(`only ${completed} of ${LIFECYCLES} lifecycles completed`);
    rates.push(completed / seconds);
  }
  printRate(
    TARGETS.lifecycles,
    median(rates),
    `median of ${LIFECYCLE_BATCHES} batches of ${LIFECYCLES} on polygon, 128 confirmations each, driven by ` +
      `clock.advance; all: ${rates.map((r) => r.toFixed(0)).join(', ')}`,
  );
}, 300_000);

describe(`mock queries with ${SMALL} vs ${LARGE} transactions`, () => {
  bench(`activity, ${SMALL}`, contenders.activitySmall);
  bench(`activity, ${LARGE}`, contenders.activityLarge);
  bench(`webhooks list, ${SMALL}`, contenders.webhooksSmall);
  bench(`webhooks list, ${LARGE}`, contenders.webhooksLarge);
  bench(`account, ${SMALL}`, contenders.accountSmall);
  bench(`account, ${LARGE}`, contenders.accountLarge);
});

describe('mock lifecycles', () => {
  bench(
    `${LIFECYCLES / 20} lifecycles, create to completed`,
    async () => {
      await lifecycles(LIFECYCLES / 20);
    },
    { iterations: 5 },
  );
});
