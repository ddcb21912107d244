// A prefunded transaction (spec 2.5, 3.1): the INR is paid out first against the account's credit limit,
// then the partner sends the stablecoin within 24 hours and the credit comes back.

import { fileURLToPath } from 'node:url';
import { PayoutClient } from 'inr-payouts';
import { createMockService } from 'inr-payouts/mock';
import { mswHandlers, onUnhandled } from 'inr-payouts/mock/msw';
import { setupServer } from 'msw/node';

export async function main() {
  const mock = createMockService({ account: { prefunded: { approved: true, creditLimitUsd: '1000' } } });
  const server = setupServer(...mswHandlers(mock));
  server.listen(onUnhandled('error')); // msw 2 and 3: a request no handler serves fails
  try {
    const client = new PayoutClient({
      apiKey: mock.sandboxKey,
      baseUrl: mock.baseUrl,
      clock: mock.clientClock,
    });
    const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210', name: 'Asha Rao' });

    const before = await client.account.retrieveCredit();
    console.log(`credit: ${before.availableUsd} of ${before.creditLimitUsd} USD available`);

    const created = await client.transactions.createPrefunded({
      userId,
      amount: '400',
      asset: 'USDC',
      network: 'base',
      partnerReference: 'prefunded-7',
    });
    const during = await client.account.retrieveCredit();
    console.log(`paying ₹${created.quote.netInr} now; outstanding ${during.outstandingUsd} USD`);

    // The payout completes; the transaction then waits for the funds (24 hours at most).
    await mock.clock.advance('1m');
    const awaiting = await client.transactions.retrieve(created.transactionId);
    console.log(
      `${awaiting.transaction.status}: send ${created.expectedAmount} USDC to ${created.depositAddress}`,
    );

    const ms = mock.helpers.transactions.simulateDeposit({ transactionId: created.transactionId });
    await mock.clock.advance(ms);
    const done = await client.transactions.retrieve(created.transactionId);
    const after = await client.account.retrieveCredit();
    console.log(`${done.transaction.status}; credit restored to ${after.availableUsd} USD`);
    return { awaiting, done, before, during, after };
  } finally {
    server.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
