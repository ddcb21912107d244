// docs/testing-with-the-mock.md, "With Jest": the guide's block unchanged, in Jest's default CommonJS set-up
// with no configuration and no msw installed: the mock through mock.fetch.
const { createMockService } = require('inr-payouts/mock');

let mock;
let client;
beforeEach(() => {
  mock = createMockService({ seed: 'my-tests' });
  client = mock.createClient(); // its requests go through mock.fetch
});

test('a payout completes', async () => {
  const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
  const { transactionId } = await client.transactions.create({
    userId,
    amount: '100',
    asset: 'USDC',
    network: 'base',
  });
  await mock.clock.advance(mock.helpers.transactions.simulateDeposit({ transactionId }));
  await mock.clock.advance('1m');
  expect((await client.transactions.retrieve(transactionId)).transaction.status).toBe('completed');
});

// Beyond the guide: with no msw installed, the rest of inr-payouts/mock loads and works under Jest's CommonJS.
const { checkReceiver, connectMock, SANDBOX_TRANSACTIONS } = require('inr-payouts/mock');

test('the msw-free parts of the mock work, and the former mock.handlers says where the handlers are', async () => {
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
  expect(typeof connectMock('http://127.0.0.1:4010').users.seedVerified).toBe('function');
  expect(typeof checkReceiver).toBe('function');
  expect(() => mock.handlers).toThrow(/moved to the entry 'inr-payouts\/mock\/msw'/);
});
