// inr-payouts/mock with msw under Jest. Jest's CommonJS module system cannot load msw (msw 3 is an ES module,
// msw 2 depends on one) on any Node version, so this project runs Jest in its ESM mode: `"type": "module"` in
// package.json and `node --experimental-vm-modules node_modules/jest/bin/jest.js`. No jest.config file; Jest's
// globals as usual. scripts/consumers/run.mjs runs it with msw 2 and msw 3, unchanged.
import { PayoutClient } from 'inr-payouts';
import { createMockService } from 'inr-payouts/mock';
import { mswHandlers, onUnhandled } from 'inr-payouts/mock/msw';
import { checkAttribution } from 'inr-payouts/money';
import { verifyWebhook } from 'inr-payouts/webhooks';
import { setupServer } from 'msw/node';

const server = setupServer();
beforeAll(() => server.listen(onUnhandled('error')));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

let mock;
let client;
beforeEach(() => {
  mock = createMockService({ seed: 'my-tests' });
  server.use(...mswHandlers(mock));
  client = new PayoutClient({ apiKey: mock.sandboxKey, baseUrl: mock.baseUrl, clock: mock.clientClock });
});

test('the client is answered by the mock', async () => {
  const user = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
  expect(user.userId).toMatch(/^usr_/);
  expect((await client.kyc.status(user.userId)).status).toBe('pending');
});

test('the webhook the mock delivers verifies on the mock clock', async () => {
  const deliveries = [];
  mock.helpers.accounts.update({ webhookUrl: 'https://partner.example/webhooks' });
  mock.helpers.webhooks.useFetch(async (_url, init) => {
    deliveries.push({
      body: String(init.body),
      signature: new Headers(init.headers).get('x-service-signature'),
    });
    return new Response(null, { status: 200 });
  });
  const user = await client.users.create({ mobile: '9876543211' });
  await mock.clock.runDue();
  expect(deliveries).toHaveLength(1);
  // Signed with the wall clock's time of the POST, so the default tolerance check passes.
  const event = verifyWebhook(deliveries[0].body, deliveries[0].signature, mock.webhookSecret);
  expect(event).toMatchObject({ event: 'user.created', data: { userId: user.userId } });
});

test('a payout funded on the virtual clock completes, with a sound rate attribution', async () => {
  const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543212' });
  const { transactionId } = await client.transactions.create({
    userId,
    amount: '100',
    asset: 'USDC',
    network: 'base',
  });
  await mock.clock.advance(mock.helpers.transactions.simulateDeposit({ transactionId }));
  mock.helpers.transactions.completePayout({ transactionId });
  const tx = await client.transactions.retrieve(transactionId);
  expect(tx.transaction.status).toBe('completed');
  expect(tx.payout?.utr).toBeTruthy();
  expect(checkAttribution(tx.payout)).toEqual([]);
});
