// Jest's default set-up: CommonJS, the node environment, no configuration file. The client, webhooks and money
// entries are required the way a CommonJS project does, and each is used for real: the client against the
// standalone mock server (`inr-payouts-mock`, started as a test harness would), its webhooks received over
// HTTP and verified.
const { spawn } = require('node:child_process');
const { createServer } = require('node:http');
const { join } = require('node:path');
const { PayoutClient, ValidationError } = require('inr-payouts');
const { verifyWebhook, WebhookVerificationError } = require('inr-payouts/webhooks');
const { blendedRate, fitsCredit } = require('inr-payouts/money');

const received = [];
const receiver = createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk) => {
    body += chunk;
  });
  request.on('end', () => {
    received.push({ body, signature: request.headers['x-service-signature'] });
    response.end();
  });
});

let mockServer;
let mock;
beforeAll(async () => {
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const webhookUrl = `http://127.0.0.1:${receiver.address().port}/webhooks`;
  const bin = join(__dirname, 'node_modules/.bin/inr-payouts-mock');
  mockServer = spawn(bin, ['--port', '0', '--webhook-url', webhookUrl], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  mock = await new Promise((resolve, reject) => {
    let out = '';
    mockServer.stdout.on('data', (chunk) => {
      out += chunk;
      const baseUrl = /listening on (\S+)/.exec(out)?.[1];
      const apiKey = /sandbox API key: (\S+)/.exec(out)?.[1];
      const webhookSecret = /webhook secret:\s+(\S+)/.exec(out)?.[1];
      if (baseUrl && apiKey && webhookSecret && out.includes('webhooks to:'))
        resolve({ baseUrl, apiKey, webhookSecret });
    });
    mockServer.on('exit', (code) => reject(new Error(`inr-payouts-mock exited (${code}):\n${out}`)));
  });
});

afterAll(async () => {
  if (mockServer && mockServer.exitCode === null) {
    const exited = new Promise((resolve) => mockServer.on('exit', resolve));
    mockServer.kill('SIGTERM');
    await exited;
  }
  await new Promise((resolve) => receiver.close(resolve));
});

test('the client creates a user and reads its KYC status', async () => {
  const client = new PayoutClient({ apiKey: mock.apiKey, baseUrl: mock.baseUrl, maxRetries: 0 });
  const user = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
  expect(user.userId).toMatch(/^usr_/);
  expect((await client.kyc.status(user.userId)).status).toBe('pending');
});

test('the client refuses bad input before sending it', async () => {
  const client = new PayoutClient({ apiKey: mock.apiKey, baseUrl: mock.baseUrl, maxRetries: 0 });
  await expect(client.users.create({ mobile: '12' })).rejects.toBeInstanceOf(ValidationError);
});

test('the webhooks the mock delivers verify, and a changed body does not', async () => {
  for (let i = 0; i < 100 && received.length === 0; i++)
    await new Promise((resolve) => setTimeout(resolve, 50));
  expect(received.length).toBeGreaterThan(0);
  const { body, signature } = received[0];
  const event = verifyWebhook(body, signature, mock.webhookSecret);
  expect(event.event).toBe('user.created');
  expect(event.data.userId).toMatch(/^usr_/);
  expect(() =>
    verifyWebhook(body.replace('user.created', 'user.deleted'), signature, mock.webhookSecret),
  ).toThrow(WebhookVerificationError);
});

test('the money helpers do decimal arithmetic', () => {
  expect(fitsCredit({ availableUsd: '100.00' }, '99.99')).toBe(true);
  expect(fitsCredit({ availableUsd: '100.00' }, '100.01')).toBe(false);
  const allocations = [
    { dealId: 'd1', dealNumber: 'D-1', rate: '83', inrAmount: '830', usdtAmount: '10' },
    { dealId: 'd2', dealNumber: 'D-2', rate: '84', inrAmount: '840', usdtAmount: '10' },
  ];
  expect(blendedRate(allocations)).toBe('83.5');
});
