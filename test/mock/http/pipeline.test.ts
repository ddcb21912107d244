import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockService } from '../../../mock/index.js';
import { mswHandlers } from '../../../mock/msw/index.js';
import {
  AuthenticationError,
  ConflictError,
  PayoutClient,
  PayoutError,
  PermissionDeniedError,
  RateLimitError,
} from '../../../src/index.js';
import { ErrorBodyA, RateLimitErrorBody } from '../../../src/schemas/common.js';
import { kycServer } from '../operations/kyc/support.js';

/**
 * A client on real time against a mock on a manual clock: the mock says which clock it runs on
 * (`X-Mock-Clock`, docs/mock-only.md), and any `waitFor...` fails at its first wait with what to change,
 * instead of polling real seconds against a clock nothing moves.
 */

function pendingTransaction() {
  const mock = createMockService();
  const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210', name: 'Asha Rao' });
  return { mock, userId };
}

describe('X-Mock-Clock: a wait that could never end fails fast', () => {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

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

describe('5, 7.6, 8: shared rules on the KYC endpoints', () => {
  const mock = kycServer();
  const BANK = { accountNumber: '123456789012', ifsc: 'HDFC0001234', accountHolderName: 'Asha Rao' };

  it('5.4: a missing or unknown key answers 401 and changes nothing', async () => {
    const { service, userId } = await mock.use();
    const stranger = new PayoutClient({
      apiKey: 'pk_sandbox_not_a_key',
      baseUrl: service.baseUrl,
      maxRetries: 0,
    });
    const error = await stranger.kyc.bank.verify(userId, BANK).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).body).toEqual({
      error: 'Unauthorized',
      message: 'Invalid or missing API key',
    });
    expect(service.state.kyc.byUserId[userId]?.bank).toBeUndefined();
  });

  it('5.5: an address off the allow-list answers 403', async () => {
    const { service, userId } = await mock.use();
    service.helpers.accounts.update({ ipAllowList: { enabled: true, addresses: ['203.0.113.7'] } });
    const client = new PayoutClient({ apiKey: service.sandboxKey, baseUrl: service.baseUrl, maxRetries: 0 });
    const error = await client.kyc.status(userId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect((error as PermissionDeniedError).status).toBe(403);
  });

  it('7.6, 8: over the per-minute limit the KYC status answers 429 with retryAfter and the three headers', async () => {
    const { service, userId } = await mock.use();
    service.helpers.accounts.update({ limits: { rateLimit: 3 } });
    const client = new PayoutClient({ apiKey: service.sandboxKey, baseUrl: service.baseUrl, maxRetries: 0 });
    await client.kyc.status(userId);
    await client.kyc.status(userId);
    const error = await client.kyc.status(userId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    const limited = error as RateLimitError;
    expect(limited.status).toBe(429);
    expect(RateLimitErrorBody.parse(limited.body).error).toBe('Rate Limit Exceeded');
    expect(limited.headers.get('X-RateLimit-Limit')).toBe('3');
    expect(limited.headers.get('X-RateLimit-Remaining')).toBe('0');
    expect(Number(limited.headers.get('X-RateLimit-Reset'))).toBeGreaterThan(0);
    await service.clock.advance('60s');
    expect((await client.kyc.status(userId)).status).toBe('pending');
  });

  it('8 (idempotency): the same key and body replays the bank verification with Idempotent-Replayed', async () => {
    const { service, client, userId } = await mock.use();
    const first = await client.kyc.bank
      .verify(userId, BANK, { idempotencyKey: '331d2876-3449-4568-9839-117bf6185109' })
      .withResponse();
    await service.clock.advance('1m');
    const again = await client.kyc.bank
      .verify(userId, BANK, { idempotencyKey: '331d2876-3449-4568-9839-117bf6185109' })
      .withResponse();
    expect(again.response.status).toBe(200);
    expect(again.response.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.data).toEqual(first.data);
    expect(service.state.kyc.byUserId[userId]?.bank?.verifiedAt).toBe('2025-01-01T00:00:00.000Z');
  });

  it('7.5: the same key with another body answers 409 IDEMPOTENCY_CONFLICT and nothing is done', async () => {
    const { service, client, userId } = await mock.use();
    const error = await client.kyc.pan
      .verify(userId, { pan: 'ABCDE1234F' }, { idempotencyKey: '1e102e62-a60a-4efd-b845-83ed4648263d' })
      .then(() =>
        client.kyc.pan
          .verify(userId, { pan: 'ABCDE1234G' }, { idempotencyKey: '1e102e62-a60a-4efd-b845-83ed4648263d' })
          .catch((e: unknown) => e),
      );
    expect(error).toBeInstanceOf(ConflictError);
    expect(ErrorBodyA.parse((error as ConflictError).body)).toMatchObject({
      error: 'Idempotency Conflict',
      code: 'IDEMPOTENCY_CONFLICT',
    });
    expect(service.state.kyc.byUserId[userId]?.pan?.number).toBe('ABCDE1234F');
  });

  it('8 (idempotency): two concurrent declarations with one key make one declaration', async () => {
    const { service, client, userId } = await mock.use();
    const body = {
      occupation: 'salaried',
      incomeRange: '5l_to_10l',
      isPep: false,
      declarationAccepted: true,
    } as const;
    const [a, b] = await Promise.all([
      client.kyc.declaration
        .submit(userId, body, { idempotencyKey: '0f1ef33a-26e1-4531-b261-093c831f8587' })
        .withResponse(),
      client.kyc.declaration
        .submit(userId, body, { idempotencyKey: '0f1ef33a-26e1-4531-b261-093c831f8587' })
        .withResponse(),
    ]);
    expect(a.data).toEqual(b.data);
    expect([a.response.idempotentReplayed, b.response.idempotentReplayed].sort()).toEqual([false, true]);
    expect(service.state.kyc.byUserId[userId]?.declaration).toMatchObject(a.data);
  });
});
