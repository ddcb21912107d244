// Testing your integration with the mock in vitest: a fresh mock per test, your real code driving the real
// PayoutClient, and the virtual clock instead of waiting. The same file runs in-process (one MSW server for the
// file) or against a running `npx inr-payouts-mock --speed manual` (set INR_PAYOUTS_MOCK_URL): the helpers are
// typed `MockHelperCalls` and every call is awaited, so only the line choosing the target differs.
//
//   npx vitest run examples/testing-with-the-mock.test.ts    (in your project: your own test file)

import { type ClientClock, PayoutClient } from 'inr-payouts';
import { connectMock, createMockService, type MockHelperCalls, SANDBOX_TRANSACTIONS } from 'inr-payouts/mock';
import { mswHandlers, onUnhandled } from 'inr-payouts/mock/msw';
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

const serverUrl = process.env.INR_PAYOUTS_MOCK_URL; // the one line: unset runs in-process
const msw = setupServer();
if (!serverUrl) {
  beforeAll(() => msw.listen(onUnhandled('error')));
  afterEach(() => msw.resetHandlers());
  afterAll(() => msw.close());
}

let helpers: MockHelperCalls;
let client: PayoutClient;
beforeEach(async () => {
  let baseUrl: string;
  // In process, the client waits on the mock's clock, so a waitFor... takes no real time. The server's clock is
  // its own: against `--speed manual` advance it (helpers.clock.advance) instead of waiting.
  let clock: ClientClock | undefined;
  if (serverUrl) {
    helpers = connectMock(serverUrl);
    await helpers.reset({ seed: 'my-payout-tests' }); // same seed, same IDs in every run
    baseUrl = serverUrl;
  } else {
    const mock = createMockService({ seed: 'my-payout-tests' });
    msw.use(...mswHandlers(mock));
    helpers = mock.helpers;
    baseUrl = mock.baseUrl;
    clock = mock.clientClock;
  }
  const { keys } = await helpers.accounts.get();
  client = new PayoutClient({ apiKey: keys.sandbox, baseUrl, maxRetries: 0, ...(clock && { clock }) });
});

describe('payOut', () => {
  it('pays the user once the deposit is confirmed', async () => {
    const { userId } = await helpers.users.seedVerified({ mobile: '9876543210' });
    const id = await payOut(client, userId, '100', 'order-1');

    await helpers.clock.advance(await helpers.transactions.simulateDeposit({ transactionId: id }));
    await helpers.transactions.completePayout({ transactionId: id });

    const tx = await client.transactions.retrieve('order-1');
    expect(tx.transaction.status).toBe('completed');
    expect(tx.payout?.utr).toBeTruthy();
    expect(await helpers.webhooks.events({ type: 'transaction.payout_completed' })).toHaveLength(1);
  });

  it('surfaces a rejected payout (sandbox value: the failing amount)', async () => {
    const { userId } = await helpers.users.seedVerified({ mobile: '9876543210' });
    const id = await payOut(client, userId, SANDBOX_TRANSACTIONS.payoutFailureAmount, 'order-2');
    await helpers.clock.advance(await helpers.transactions.simulateDeposit({ transactionId: id }));
    await helpers.clock.advance('1m');
    expect((await client.transactions.retrieve(id)).transaction.status).toBe('failed');
  });

  it('refuses a user who has not finished KYC', async () => {
    const { userId } = await helpers.users.seedVerified({ mobile: '9876543210', kycStatus: 'in_progress' });
    await expect(payOut(client, userId, '100', 'order-3')).rejects.toMatchObject({
      status: 422,
      code: 'KYC_INCOMPLETE',
    });
  });
});
