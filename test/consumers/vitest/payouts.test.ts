// docs/testing-with-the-mock.md, as a partner copies it: the guide's set-up block unchanged, then tests that
// use the helpers and move the virtual clock the way the guide shows.
import { PayoutClient } from 'inr-payouts';
import { createMockService, type MockService } from 'inr-payouts/mock';
import { mswHandlers, onUnhandled } from 'inr-payouts/mock/msw'; // the only import of the package that loads msw
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

const server = setupServer();
// An unhandled request fails the test, on msw 2 and msw 3 alike.
beforeAll(() => server.listen(onUnhandled('error')));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

let mock: MockService;
let client: PayoutClient;
beforeEach(() => {
  mock = createMockService({ seed: 'my-tests' }); // same seed, same IDs, keys and OTPs every run
  server.use(...mswHandlers(mock));
  // On the mock's clock: a waitFor... or a retry's back-off advances the mock instead of sleeping.
  client = new PayoutClient({ apiKey: mock.sandboxKey, baseUrl: mock.baseUrl, clock: mock.clientClock });
});

// What the tests below use besides the guide's set-up (imports are hoisted, so they may follow it).
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SANDBOX_TRANSACTIONS } from 'inr-payouts/mock';
import { describe, expect, it } from 'vitest';

describe('a payout against the mock', () => {
  it('completes once the deposit is confirmed and the bank answers', async () => {
    const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
    const { transactionId } = await client.transactions.create({
      userId,
      amount: '100',
      asset: 'USDC',
      network: 'base',
      partnerReference: 'order-1',
    });

    const ms = mock.helpers.transactions.simulateDeposit({ transactionId });
    await mock.clock.advance(ms); // every confirmation; the payout starts
    await mock.clock.advance('1m'); // the bank answers; webhooks are delivered and retried on the same clock

    const tx = await client.transactions.retrieve('order-1');
    expect(tx.transaction.status).toBe('completed');
    expect(tx.payout?.utr).toBeTruthy();
    expect(mock.helpers.webhooks.events({ type: 'transaction.payout_completed' })).toHaveLength(1);
  });

  it('fails when the bank rejects it (a sandbox value)', async () => {
    const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
    const { transactionId } = await client.transactions.create({
      userId,
      amount: SANDBOX_TRANSACTIONS.payoutFailureAmount,
      asset: 'USDC',
      network: 'base',
    });
    await mock.clock.advance(mock.helpers.transactions.simulateDeposit({ transactionId }));
    await mock.clock.advance('1m');
    expect((await client.transactions.retrieve(transactionId)).transaction.status).toBe('failed');
  });
});

describe('faults', () => {
  it('loses the answer of a create that took effect, and answers 503 twice', async () => {
    // Without retries, so each fault reaches the test: the set-up's client would retry them away.
    const once = new PayoutClient({
      apiKey: mock.sandboxKey,
      baseUrl: mock.baseUrl,
      clock: mock.clientClock,
      maxRetries: 0,
    });
    mock.helpers.faults.inject({
      match: { method: 'POST', path: '/v2/transactions' },
      kind: 'drop-after-commit',
    });
    mock.helpers.faults.inject({
      match: { path: '/v2/users/:userId/kyc/status' },
      kind: 'error',
      status: 503,
      times: 2,
    });
    const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
    const create = {
      userId,
      amount: '100',
      asset: 'USDT',
      network: 'base',
      partnerReference: 'order-f',
    } as const;
    await expect(once.transactions.create(create)).rejects.toThrow();
    expect((await once.transactions.retrieve('order-f')).transaction.status).toBe('created');
    await expect(once.kyc.status(userId)).rejects.toMatchObject({ status: 503 });
    await expect(once.kyc.status(userId)).rejects.toMatchObject({ status: 503 });
    expect((await once.kyc.status(userId)).status).toBe('verified');
  });
});

describe('the journal', () => {
  it('shows the transaction moving through its states', async () => {
    const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
    const { transactionId } = await client.transactions.create({
      userId,
      amount: '100',
      asset: 'USDT',
      network: 'polygon',
    });
    mock.helpers.transactions.simulateDeposit({ transactionId });
    await mock.clock.advance('10m');
    mock.journal.entries({ transactionId, type: 'transition' }); // its status moves, then its attribution's and sweep's
    mock.helpers.journal({ type: 'request', since: 40 }); // the same, as a helper (and GET /__mock/journal)
    const moves = mock.journal
      .entries({ transactionId, type: 'transition' })
      .filter((entry) => entry.type === 'transition' && entry.resource === 'transaction');
    expect(moves.map((entry) => (entry.type === 'transition' ? entry.to : ''))).toEqual([
      'deposit_pending',
      'deposit_detected',
      'deposit_confirmed',
      'payout_processing',
      'completed',
    ]);
  });
});

describe('one operation overridden', () => {
  it('answers the credit the test chose, then the simulation again', async () => {
    const stop = mock.override('account.retrieveCredit', () => ({
      data: { prefundedEnabled: true, creditLimitUsd: '500', outstandingUsd: '0', availableUsd: '500' },
    }));
    const credit = await client.account.retrieveCredit(); // answered by the override
    stop(); // the simulation answers again
    expect(credit.creditLimitUsd).toBe('500');
    expect((await client.account.retrieveCredit()).creditLimitUsd).not.toBe('500');
  });
});

describe('waits on the virtual clock', () => {
  it('gets the attribution of a fresh mock with no set-up, in no real time', async () => {
    const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
    const created = await mock.createClient().transactions.create({
      userId,
      amount: '100',
      asset: 'USDT',
      network: 'base',
    });
    const { transactionId } = created;
    await mock.clock.advance(mock.helpers.transactions.simulateDeposit({ transactionId }));
    const client = mock.createClient();
    const paid = await client.transactions.waitForAttribution(transactionId); // polls on the virtual clock
    expect(paid.payout?.allocations?.length).toBeGreaterThan(0);
  });
});

describe('no network: the listen option of the msw installed', () => {
  it('fails a request no handler serves, instead of sending it to the real network', async () => {
    let reached = 0;
    const real = createServer((_request, response) => {
      reached += 1;
      response.end('reached the network');
    });
    await new Promise<void>((resolve) => real.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = real.address() as AddressInfo;
      await expect(fetch(`http://127.0.0.1:${port}/not-mocked`)).rejects.toThrow();
      expect(reached).toBe(0);
    } finally {
      real.close();
    }
  });
});

describe('without msw: mock.fetch', () => {
  it('serves a client given mock.fetch', async () => {
    const client = new PayoutClient({
      apiKey: mock.sandboxKey,
      baseUrl: mock.baseUrl,
      fetch: mock.fetch, // answered in-process, nothing intercepted
      clock: mock.clientClock, // every wait on the mock's clock
    });
    const account = await client.account.retrieve();
    expect(account.id).toBe(mock.accountId);
  });

  it('delivers webhooks to an in-process receiver written as a fetch handler', async () => {
    const delivered: string[] = [];
    const app = {
      fetch: async (request: Request) => {
        delivered.push(request.headers.get('x-service-event-id') ?? '');
        return new Response(null, { status: 200 });
      },
    };
    mock.helpers.accounts.update({ webhookUrl: 'https://partner.test/webhooks' });
    mock.helpers.webhooks.useFetch((url, init) => app.fetch(new Request(url, init)));
    await mock.createClient().users.create({ mobile: '9876543210' });
    await mock.clock.advance('1s');
    expect(delivered).toHaveLength(1);
  });
});

// `npx inr-payouts-mock` as a test harness starts it: a free port, the address read from its first line.
const bin = new URL('./node_modules/.bin/inr-payouts-mock', import.meta.url).pathname;
const child = spawn(bin, ['--port', '0', '--speed', 'manual'], { stdio: ['ignore', 'pipe', 'inherit'] });
afterAll(() => {
  child.kill('SIGTERM');
});
process.env.INR_PAYOUTS_MOCK_URL = await new Promise<string>((resolve, reject) => {
  let out = '';
  child.stdout?.on('data', (chunk) => {
    out += chunk;
    const url = /listening on (\S+)/.exec(out)?.[1];
    if (url) resolve(url);
  });
  child.on('exit', (code) => reject(new Error(`inr-payouts-mock exited (${code}):\n${out}`)));
});

import { connectMock, type MockHelperCalls } from 'inr-payouts/mock';

// The address `npx inr-payouts-mock` printed; `createMockService().helpers` runs the same calls in-process.
const helpers: MockHelperCalls = connectMock(process.env.INR_PAYOUTS_MOCK_URL ?? 'http://127.0.0.1:4010');
await helpers.reset({ seed: 'my-tests' });
const { userId } = await helpers.users.seedVerified({ mobile: '9876543210' });

describe('the same helpers against a standalone server', () => {
  it('seeded a verified user there through connectMock', async () => {
    expect(userId).toMatch(/^usr_/);
    const state = await helpers.snapshot();
    expect(state.users.byId[userId]?.mobile).toBe('+919876543210');
  });
});
