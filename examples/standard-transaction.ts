// A standard transaction (spec 2.4, 3.1): quote and deposit address, the stablecoin deposit and its
// confirmations, the INR payout with its UTR, and the rate attribution across the pool's deal-rate tranches.
// In the mock, `simulateDeposit` plays the blockchain and `clock.advance` plays the wait.

import { fileURLToPath } from 'node:url';
import { PayoutClient } from 'inr-payouts';
import { createMockService } from 'inr-payouts/mock';
import { mswHandlers, onUnhandled } from 'inr-payouts/mock/msw';
import { checkAttribution } from 'inr-payouts/money';
import { setupServer } from 'msw/node';

export async function main() {
  const mock = createMockService();
  const server = setupServer(...mswHandlers(mock));
  server.listen(onUnhandled('error')); // msw 2 and 3: a request no handler serves fails
  try {
    const client = new PayoutClient({
      apiKey: mock.sandboxKey,
      baseUrl: mock.baseUrl,
      clock: mock.clientClock,
    });
    // A user who has already passed KYC, and an INR escrow pool of two settled deal-rate tranches (in
    // place of the sandbox's default pool, so the payout spills from the first into the second).
    const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210', name: 'Asha Rao' });
    mock.helpers.tranches.replace([
      { rate: '83.10', inrAmount: '5000.00' },
      { rate: '83.40', inrAmount: '50000.00' },
    ]);

    const created = await client.transactions.create({
      userId,
      amount: '100.00',
      asset: 'USDT',
      network: 'polygon',
      partnerReference: 'order-42',
    });
    console.log(`send ${created.expectedAmount} ${created.depositAsset} to ${created.depositAddress}`);
    console.log(`quote: ${created.quote.exchangeRate} INR/USD, net ₹${created.quote.netInr}`);

    const confirmMs = mock.helpers.transactions.simulateDeposit({ transactionId: created.transactionId });
    await mock.clock.advance(confirmMs); // every confirmation; the payout starts
    await mock.clock.advance('1m'); // the bank accepts the transfer; attribution follows "just after"

    // By partnerReference, as after a lost answer; waitForAttribution polls a real service the same way.
    const paid = await client.transactions.waitForAttribution('order-42');
    console.log(`${paid.transaction.status}: ₹${paid.payout.amountInr}, UTR ${paid.payout.utr}`);
    console.log(`rate ${paid.payout.rate} INR/USDT, ${paid.payout.usdtEquivalent} USDT consumed`);
    for (const a of paid.payout.allocations) console.log(`  ${a.dealNumber}: ₹${a.inrAmount} at ${a.rate}`);

    // The invariants of spec 2.4 (sums match, rate is the blend), checked with decimal arithmetic.
    const problems = checkAttribution(paid.payout);
    if (problems.length > 0) throw new Error(`attribution does not add up: ${problems.join('; ')}`);
    return paid;
  } finally {
    server.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
