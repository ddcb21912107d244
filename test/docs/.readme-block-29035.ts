import { PayoutClient } from 'inr-payouts';
import { createMockService } from 'inr-payouts/mock';
import { mswHandlers, onUnhandled } from 'inr-payouts/mock/msw';
import { createWebhookHandler } from 'inr-payouts/webhooks/handler';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, test } from 'vitest';

const mock = createMockService({ seed: 'my-tests' }); // same seed, same IDs every run
const server = setupServer(...mswHandlers(mock));
beforeAll(() => server.listen(onUnhandled('error'))); // any other request fails the test (msw 2 and 3)
afterAll(() => server.close());

test('a payout completes, and our receiver hears of it', async () => {
  // Your receiver under test: here the package's handler; your app's fetch handler or route works the same.
  const utrs: string[] = [];
  const receiver = createWebhookHandler({
    secret: mock.webhookSecret,
    on: { 'transaction.payout_completed': async (event) => void utrs.push(event.data.utr) },
  });
  // Deliveries are real POSTs that msw lets through to the network: hand them to the receiver instead.
  mock.accounts.update({ webhookUrl: 'https://partner.example/webhooks' });
  mock.helpers.webhooks.useFetch((url, init) => receiver(new Request(url, init)));

  const client = new PayoutClient({
    apiKey: mock.sandboxKey,
    baseUrl: mock.baseUrl,
    clock: mock.clientClock,
  });
  const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
  const { transactionId } = await client.transactions.create({
    userId,
    amount: '100',
    asset: 'USDT',
    network: 'polygon',
  });
  mock.helpers.transactions.simulateDeposit({ transactionId }); // the user's stablecoin arrives
  const done = await client.transactions.waitForStatus(transactionId); // polls on the virtual clock
  await mock.helpers.webhooks.settle(); // every webhook due delivered and answered

  expect(done.transaction.status).toBe('completed');
  expect(utrs).toEqual([done.payout?.utr]);
});
