/**
 * A client on real time against a mock on a manual clock: the mock says which clock it runs on
 * (`X-Mock-Clock`, docs/mock-only.md), and any `waitFor...` fails at its first wait with what to change,
 * instead of polling real seconds against a clock nothing moves.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockService } from '../../../mock/index.js';
import { mswHandlers } from '../../../mock/msw/index.js';
import { PayoutClient, PayoutError } from '../../../src/index.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

function pendingTransaction() {
  const mock = createMockService();
  const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210', name: 'Asha Rao' });
  return { mock, userId };
}

describe('X-Mock-Clock: a wait that could never end fails fast', () => {
  it("the testing guide's msw set-up without the mock's clock: waitForStatus refuses at once, naming mock.createClient()", async () => {
    const { mock, userId } = pendingTransaction();
    server.use(...mswHandlers(mock));
    const client = new PayoutClient({ apiKey: mock.sandboxKey, baseUrl: mock.baseUrl, maxRetries: 0 });
    const created = await client.transactions.create({
      userId,
      amount: '100',
      asset: 'USDT',
      network: 'arbitrum',
    });
    const failure = await client.transactions.waitForStatus(created.transactionId).catch((e: unknown) => e);
    // Refused at its first wait: one read of the transaction, no polling against the frozen clock.
    const reads = mock.journal
      .entries({ type: 'request' })
      .filter((entry) => entry.method === 'GET' && entry.path.includes(created.transactionId));
    expect(reads).toHaveLength(1);
    expect(failure).toBeInstanceOf(PayoutError);
    expect(String((failure as Error).message)).toContain('mock.createClient()');
    expect(String((failure as Error).message)).toContain(mock.baseUrl);
    const headers = (await client.account.retrieve().withResponse()).response.headers;
    expect(headers.get('x-mock-clock')).toBe('manual');
  });

  it('waitForAttribution refuses the same way through mock.fetch, with no clock', async () => {
    const { mock, userId } = pendingTransaction();
    const client = new PayoutClient({ apiKey: mock.sandboxKey, baseUrl: mock.baseUrl, fetch: mock.fetch });
    const created = await client.transactions.create({
      userId,
      amount: '100',
      asset: 'USDT',
      network: 'arbitrum',
    });
    await expect(client.transactions.waitForAttribution(created.transactionId)).rejects.toThrow(
      /mock\.createClient\(\)/,
    );
  });

  it('the same flow on mock.createClient() waits on the virtual clock and completes', async () => {
    const { mock, userId } = pendingTransaction();
    const client = mock.createClient();
    const created = await client.transactions.create({
      userId,
      amount: '100',
      asset: 'USDT',
      network: 'arbitrum',
    });
    mock.helpers.transactions.simulateDeposit({ transactionId: created.transactionId });
    const done = await client.transactions.waitForStatus(created.transactionId);
    expect(done.transaction.status).toBe('completed');
  });

  it('a mock on a real-time clock answers X-Mock-Clock: realtime, and a client on real time polls it', async () => {
    const mock = createMockService();
    mock.clock.startRealtime({ speed: 3000 });
    try {
      const client = new PayoutClient({ apiKey: mock.sandboxKey, baseUrl: mock.baseUrl, fetch: mock.fetch });
      const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210', name: 'Asha Rao' });
      const answer = await client.account.retrieve().withResponse();
      expect(answer.response.headers.get('x-mock-clock')).toBe('realtime');
      const created = await client.transactions.create({
        userId,
        amount: '100',
        asset: 'USDT',
        network: 'arbitrum',
      });
      // The quote expires 15 virtual minutes on: 0.3 s at 3000x, well inside the poll's deadline.
      const ended = await client.transactions.waitForStatus(created.transactionId, { interval: 100 });
      expect(ended.transaction.status).toBe('cancelled');
    } finally {
      mock.clock.stop();
    }
  });
});
