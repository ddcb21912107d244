// docs/getting-started.md, "Against the embedded mock", unchanged: an ES module (top-level await), no msw.
import { createMockService } from 'inr-payouts/mock';

const mock = createMockService();
const client = mock.createClient(); // the mock's key, base URL, mock.fetch and virtual clock
const user = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
console.log(user.userId, (await client.kyc.status(user.userId)).status); // usr_… pending
