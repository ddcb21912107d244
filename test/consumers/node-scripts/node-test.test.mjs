// node:test with inr-payouts/mock and no msw: the testing guide's flow through mock.fetch (mock.createClient()),
// the virtual clock moved by the test, a webhook delivered to an in-process receiver (Request => Response).
import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import { createMockService, SANDBOX_TRANSACTIONS } from 'inr-payouts/mock';
import { verifyWebhook } from 'inr-payouts/webhooks';

let mock;
let client;
beforeEach(() => {
  mock = createMockService({ seed: 'my-tests' });
  client = mock.createClient();
});

test('a payout completes once the deposit is confirmed and the bank answers', async () => {
  const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
  const { transactionId } = await client.transactions.create({
    userId,
    amount: '100',
    asset: 'USDC',
    network: 'base',
    partnerReference: 'order-1',
  });
  await mock.clock.advance(mock.helpers.transactions.simulateDeposit({ transactionId }));
  await mock.clock.advance('1m');
  const tx = await client.transactions.retrieve('order-1');
  assert.equal(tx.transaction.status, 'completed');
  assert.match(tx.payout?.utr ?? '', /^SBX\d{12}$/);
});

test('a payout the bank rejects fails (a sandbox value)', async () => {
  const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
  const { transactionId } = await client.transactions.create({
    userId,
    amount: SANDBOX_TRANSACTIONS.payoutFailureAmount,
    asset: 'USDC',
    network: 'base',
  });
  await mock.clock.advance(mock.helpers.transactions.simulateDeposit({ transactionId }));
  await mock.clock.advance('1m');
  assert.equal((await client.transactions.retrieve(transactionId)).transaction.status, 'failed');
});

test('webhooks reach an in-process receiver written as a fetch handler, with no port', async () => {
  const received = [];
  const receiver = async (request) => {
    const body = await request.text();
    received.push(verifyWebhook(body, request.headers.get('x-service-signature'), mock.webhookSecret).event);
    return new Response(null, { status: 200 });
  };
  mock.helpers.accounts.update({ webhookUrl: 'https://partner.test/webhooks' });
  mock.helpers.webhooks.useFetch((url, init) => receiver(new Request(url, init)));
  await client.users.create({ mobile: '9876543210' });
  await mock.clock.advance('1s');
  assert.deepEqual(received, ['user.created']);
});

test('the former mock.handlers says where the msw handlers are, and nothing of the mock needs msw', () => {
  assert.throws(() => mock.handlers, /moved to the entry 'inr-payouts\/mock\/msw'/);
});
