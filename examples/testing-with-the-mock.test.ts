// Testing your integration with the mock in vitest: one MSW server for the file, a fresh service per test,
// your real code driving the real PayoutClient, and the virtual clock instead of waiting.
//
//   npx vitest run examples/testing-with-the-mock.test.ts    (in your project: your own test file)

import { PayoutClient } from 'inr-payouts';
import { createMockService, type MockService, SANDBOX_TRANSACTIONS } from 'inr-payouts/mock';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

// The code under test: your own function that pays a user out.
async function payOut(client: PayoutClient, userId: string, amount: string, orderId: string) {
  const created = await client.transactions.create({
    userId,
    amount,
    asset: 'USDC',
    network: 'base',
    partnerReference: orderId,
  });
  return created.transactionId;
}

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

let mock: MockService;
let client: PayoutClient;
beforeEach(() => {
  mock = createMockService({ seed: 'my-payout-tests' }); // same seed, same IDs in every run
  server.use(...mock.handlers);
  client = new PayoutClient({ apiKey: mock.sandboxKey, baseUrl: mock.baseUrl, maxRetries: 0 });
});

describe('payOut', () => {
  it('pays the user once the deposit is confirmed', async () => {
    const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
    const id = await payOut(client, userId, '100', 'order-1');

    await mock.clock.advance(mock.helpers.transactions.simulateDeposit({ transactionId: id }));
    mock.helpers.transactions.completePayout({ transactionId: id });

    const tx = await client.transactions.retrieve('order-1');
    expect(tx.transaction.status).toBe('completed');
    expect(tx.payout?.utr).toBeTruthy();
    expect(mock.helpers.webhooks.events({ type: 'transaction.payout_completed' })).toHaveLength(1);
  });

  it('surfaces a rejected payout (sandbox value: the failing amount)', async () => {
    const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
    const id = await payOut(client, userId, SANDBOX_TRANSACTIONS.payoutFailureAmount, 'order-2');
    await mock.clock.advance(mock.helpers.transactions.simulateDeposit({ transactionId: id }));
    await mock.clock.advance('1m');
    expect((await client.transactions.retrieve(id)).transaction.status).toBe('failed');
  });

  it('refuses a user who has not finished KYC', async () => {
    const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210', kycStatus: 'in_progress' });
    await expect(payOut(client, userId, '100', 'order-3')).rejects.toMatchObject({
      status: 422,
      code: 'KYC_INCOMPLETE',
    });
  });
});
