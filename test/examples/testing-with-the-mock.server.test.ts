// The same partner-facing example, against a standalone mock server on a free port through `connectMock`:
// the example picks its target from INR_PAYOUTS_MOCK_URL, so its tests run unchanged over HTTP.
import { afterAll } from 'vitest';
import { startMockServer } from '../../mock/server/server.js';

const running = await startMockServer({ port: 0, host: '127.0.0.1' }); // manual clock: time moves when told;
process.env.INR_PAYOUTS_MOCK_URL = running.url;
afterAll(async () => {
  delete process.env.INR_PAYOUTS_MOCK_URL;
  await running.close();
});

await import('../../examples/testing-with-the-mock.test.js');
