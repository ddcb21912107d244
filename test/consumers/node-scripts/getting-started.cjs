// docs/getting-started.md, "Against the embedded mock", as a CommonJS script: require() and an async function
// instead of import and top-level await. No msw is installed in this project.
const { PayoutClient } = require('inr-payouts');
const { createMockService } = require('inr-payouts/mock');

async function main() {
  const mock = createMockService();
  const client = new PayoutClient({ apiKey: mock.sandboxKey, baseUrl: mock.baseUrl, fetch: mock.fetch });
  const user = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
  console.log(user.userId, (await client.kyc.status(user.userId)).status); // usr_… pending
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
