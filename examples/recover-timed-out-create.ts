// Recovering a create call that timed out (spec 4.2): the service may have created the transaction even though
// the answer never arrived. `createWithRecovery` looks it up by `partnerReference` before creating again, and
// every retry reuses the same Idempotency-Key, so there is exactly one transaction.

import { fileURLToPath } from 'node:url';
import { PayoutClient } from 'inr-payouts';
import { createMockService } from 'inr-payouts/mock';
import { mswHandlers, onUnhandled } from 'inr-payouts/mock/msw';
import { setupServer } from 'msw/node';

export async function main() {
  const mock = createMockService();
  const server = setupServer(...mswHandlers(mock));
  server.listen(onUnhandled('error')); // msw 2 and 3: a request no handler serves fails
  try {
    const client = new PayoutClient({
      apiKey: mock.sandboxKey,
      baseUrl: mock.baseUrl,
      maxRetries: 0,
      clock: mock.clientClock,
    });
    const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });

    // The service commits the transaction, then the connection drops before the answer.
    mock.helpers.faults.inject({
      match: { method: 'POST', path: '/v2/transactions' },
      kind: 'drop-after-commit',
    });

    const result = await client.transactions.createWithRecovery({
      userId,
      amount: '250',
      asset: 'USDC',
      network: 'arbitrum',
      partnerReference: 'order-1001',
    });
    const count = Object.keys(mock.state.transactions.byId).length;
    console.log(`recovered: ${result.recovered}; transaction ${result.transactionId}; ${count} in total`);
    return { result, count };
  } finally {
    server.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
