// docs/getting-started.md, "Against the embedded mock", unchanged: an ES module (top-level await).
import { PayoutClient } from 'inr-payouts';
import { createMockService } from 'inr-payouts/mock';
import { setupServer } from 'msw/node';

const mock = createMockService();
const server = setupServer(...mock.handlers);
server.listen({ onUnhandledRequest: 'error' });

const client = new PayoutClient({ apiKey: mock.sandboxKey, baseUrl: mock.baseUrl });
const user = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
console.log(user.userId, (await client.kyc.status(user.userId)).status); // usr_… pending

server.close();
