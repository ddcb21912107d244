// Quick start: a client against the embedded mock, one user created and read back through KYC status.
// Swap the mock for your sandbox by passing your key and base URL to PayoutClient.

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
      clock: mock.clientClock,
    });

    const account = await client.account.retrieve();
    console.log(
      `Account ${account.name} (${account.environment}), ${account.limits.rateLimit} requests/minute`,
    );

    const user = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
    console.log(`Created ${user.userId}; mobile verified: ${user.mobileVerified}`);

    const kyc = await client.kyc.status(user.userId);
    console.log(`KYC ${kyc.status}, level ${kyc.level}`);
    return { account, user, kyc };
  } finally {
    server.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
