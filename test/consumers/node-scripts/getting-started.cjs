// docs/getting-started.md, "Against the embedded mock", as a CommonJS script: require() and an async function
// instead of import and top-level await. No msw is installed in this project.
const { createMockService } = require('inr-payouts/mock');

async function main() {
  const mock = createMockService();
  const client = mock.createClient(); // the mock's key, base URL, mock.fetch and virtual clock
  const user = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
  console.log(user.userId, (await client.kyc.status(user.userId)).status); // usr_… pending
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
