// docs/testing-with-the-mock.md, as a partner copies it: the guide's set-up block unchanged, then tests that
// use the helpers and move the virtual clock the way the guide shows.
import { PayoutClient } from 'inr-payouts';
import { createMockService, type MockService } from 'inr-payouts/mock';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

let mock: MockService;
let client: PayoutClient;
beforeEach(() => {
  mock = createMockService({ seed: 'my-tests' }); // same seed, same IDs, keys and OTPs every run
  server.use(...mock.handlers);
  client = new PayoutClient({ apiKey: mock.sandboxKey, baseUrl: mock.baseUrl, maxRetries: 0 });
});

// What the tests below use besides the guide's set-up (imports are hoisted, so they may follow it).
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
