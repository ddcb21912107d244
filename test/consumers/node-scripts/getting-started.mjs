// docs/getting-started.md, "Against the embedded mock", unchanged: an ES module (top-level await), no msw.
import { PayoutClient } from 'inr-payouts';
import { createMockService } from 'inr-payouts/mock';

const mock = createMockService();
const client = new PayoutClient({ apiKey: mock.sandboxKey, baseUrl: mock.baseUrl, fetch: mock.fetch });
const user = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
console.log(user.userId, (await client.kyc.status(user.userId)).status); // usr_… pending
