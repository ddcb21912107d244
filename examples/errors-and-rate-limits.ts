// Handling errors and rate limits (spec 7, 8): every failure is a typed error with `status`, a normalised
// `code` and the extra fields; a field rule broken in the request fails before anything is sent; 429s are
// waited out and retried by the client on its own.

import { fileURLToPath } from 'node:url';
import {
  APIError,
  NotFoundError,
  PayoutClient,
  RateLimitError,
  UnprocessableEntityError,
  ValidationError,
} from 'inr-payouts';
import { createMockService, SANDBOX_KYC } from 'inr-payouts/mock';
import { mswHandlers, onUnhandled } from 'inr-payouts/mock/msw';
import { setupServer } from 'msw/node';

export async function main() {
  const mock = createMockService();
  const server = setupServer(...mswHandlers(mock));
  server.listen(onUnhandled('error')); // msw 2 and 3: a request no handler serves fails
  const seen: string[] = [];
  try {
    const client = new PayoutClient({
      apiKey: mock.sandboxKey,
      baseUrl: mock.baseUrl,
      clock: mock.clientClock,
    });
    const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });

    // 1. Checked before sending: below the USD 10 minimum.
    try {
      await client.transactions.create({ userId, amount: '5', asset: 'USDC', network: 'polygon' });
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      seen.push('ValidationError');
      console.log(`not sent: ${error.message}`);
    }

    // 2. Refused by the service: KYC is not done yet (422 KYC_INCOMPLETE). Tell the user what to finish.
    try {
      await client.transactions.create({ userId, amount: '50', asset: 'USDC', network: 'polygon' });
    } catch (error) {
      if (!(error instanceof UnprocessableEntityError)) throw error;
      seen.push(error.code);
      console.log(`${error.status} ${error.code}: ${error.message}`);
    }

    // 3. The two error shapes of 7.1 read alike: a bank name mismatch (shape B) carries matchScore.
    try {
      await client.kyc.bank.verify(userId, {
        accountNumber: SANDBOX_KYC.bank.otherHolder,
        ifsc: 'HDFC0001234',
        accountHolderName: 'Asha Rao',
      });
    } catch (error) {
      if (!(error instanceof APIError)) throw error;
      seen.push(error.code);
      console.log(`${error.status} ${error.code}: ${error.message}`);
    }

    // 4. Not found.
    try {
      await client.transactions.retrieve('no-such-order');
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      seen.push('NotFoundError');
      console.log(`${error.status} ${error.code}: ${error.message}`);
    }

    // 5. A 429 storm: the client waits `retryAfter` and retries; with retries off the error says how long.
    mock.helpers.faults.inject({ match: { path: '/v2/account' }, kind: 'error', status: 429, times: 1 });
    const noRetry = new PayoutClient({
      apiKey: mock.sandboxKey,
      baseUrl: mock.baseUrl,
      maxRetries: 0,
      clock: mock.clientClock,
    });
    try {
      await noRetry.account.retrieve();
    } catch (error) {
      if (!(error instanceof RateLimitError)) throw error;
      seen.push('RateLimitError');
      console.log(`429: ${error.message}`);
    }
    return { seen };
  } finally {
    server.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
