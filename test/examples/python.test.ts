// examples/python/mock_client.py, a standard-library Python client of the standalone mock, run against a real
// `inr-payouts-mock` process: it loads /openapi.json, calls the helpers the document describes, triggers a
// webhook with custom data and verifies its delivery with its own receiver.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../mock/server/support.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

it('the Python example triggers a webhook with custom data and receives it verified', async () => {
  const script = new URL('../../examples/python/mock_client.py', import.meta.url).pathname;
  const { stdout } = await promisify(execFile)('python3', [script, server.url], { timeout: 60_000 });
  expect(JSON.parse(stdout)).toEqual({
    received: 'transaction.payout_failed',
    code: 'BANK_ACCOUNT_INVALID',
    verified: true,
  });
});
