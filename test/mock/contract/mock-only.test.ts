/**
 * The strict profile answers exactly what the spec shows: none of the fields and headers of
 * `mock/contract/mock-only.ts` (docs/mock-only.md), which the default profile sends; and the client's
 * `waitForAttribution` works without `attributionStatus`, as against the service.
 */
import { readFileSync } from 'node:fs';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MOCK_ONLY_FIELDS } from '../../../mock/contract/mock-only.js';
import { createMockService, EXPLAIN_HEADER, type MockProfile } from '../../../mock/index.js';
import { mswHandlers } from '../../../mock/msw/index.js';
import { parseCli } from '../../../mock/server/cli.js';
import { PayoutClient, PollTimeoutError, TransactionStatusError } from '../../../src/index.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function use(profile: MockProfile) {
  const mock = createMockService({ seed: 'strict-profile', profile });
  server.use(...mswHandlers(mock));
  const client = new PayoutClient({ apiKey: mock.sandboxKey, baseUrl: mock.baseUrl, maxRetries: 0 });
  const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
  return { mock, client, userId };
}

async function paidOut(profile: MockProfile, amount = '100') {
  const { mock, client, userId } = use(profile);
  const { transactionId } = await client.transactions.create({
    userId,
    amount,
    asset: 'USDC',
    network: 'arbitrum',
  });
  await mock.clock.advance(mock.helpers.transactions.simulateDeposit({ transactionId }));
  return { mock, client, transactionId };
}

const mockOnlyPaths = (MOCK_ONLY_FIELDS['transactions.retrieve'] ?? []).map((f) => f.path);

function present(data: Record<string, Record<string, unknown> | undefined>, path: string): boolean {
  const [outer = '', inner = ''] = path.split('.');
  return inner in (data[outer] ?? {});
}

describe("the strict profile answers the spec's fields only", () => {
  it("the transaction read: the default profile sends the mock's fields, the strict one none of them", async () => {
    for (const profile of ['default', 'strict'] as const) {
      const { mock, client, transactionId } = await paidOut(profile);
      // Attributed, then failed: every mock-only field has a value to send.
      await mock.clock.advance('1s');
      await mock.helpers.transactions.failPayout({ transactionId });
      const { data } = await client.transactions.retrieve(transactionId).withResponse();
      const sent = mockOnlyPaths.filter((path) =>
        present(data as unknown as Record<string, Record<string, unknown>>, path),
      );
      expect(sent, profile).toEqual(profile === 'strict' ? [] : mockOnlyPaths);
      expect(data.transaction.status).toBe('failed');
    }
  });

  it('X-Mock-Explain: on a refusal in the default profile, never in the strict one', async () => {
    for (const profile of ['default', 'strict'] as const) {
      const { mock } = use(profile);
      const response = await mock.dispatch(new Request(`${mock.baseUrl}/v2/account`));
      expect(response?.status).toBe(401);
      expect(response?.headers.has(EXPLAIN_HEADER), profile).toBe(profile === 'default');
    }
  });

  it('--profile strict on the command line; another value is refused', () => {
    expect(parseCli(['--profile', 'strict']).profile).toBe('strict');
    expect(parseCli([]).profile).toBeUndefined();
    expect(() => parseCli(['--profile', 'loose'])).toThrow(/--profile must be default or strict/);
    expect(() => createMockService({ profile: 'loose' as MockProfile })).toThrow(/profile must be one of/);
  });

  it('docs/mock-only.md has a row for every mock-only field', () => {
    const table = readFileSync(new URL('../../../docs/mock-only.md', import.meta.url), 'utf8');
    for (const path of mockOnlyPaths) expect(table, path).toContain(`\`${path}\``);
    expect(table).toContain('`X-Mock-Explain`');
  });
});

describe('waitForAttribution without attributionStatus (strict profile)', () => {
  it('resolves with the attribution once it is computed', async () => {
    const { mock, client, transactionId } = await paidOut('strict');
    await mock.clock.advance('1s');
    const { payout } = await client.transactions.waitForAttribution(transactionId);
    expect(payout.allocations.length).toBeGreaterThan(0);
  });

  it('waits to its deadline (PollTimeoutError) for a payout the pool could not cover, as against the service', async () => {
    const { mock, client, userId } = use('strict');
    mock.helpers.tranches.clear();
    const { transactionId } = await client.transactions.create({
      userId,
      amount: '100',
      asset: 'USDC',
      network: 'arbitrum',
    });
    await mock.clock.advance(mock.helpers.transactions.simulateDeposit({ transactionId }));
    await mock.clock.advance('10s');
    const read = await client.transactions.retrieve(transactionId);
    expect(read.payout).not.toHaveProperty('attributionStatus');
    expect(read.payout?.status).toBe('completed');
    // On the mock's clock the default 2-minute deadline passes in virtual time; a client on real time would be
    // refused the wait (X-Mock-Clock) before it got there.
    const onClock = mock.createClient({ fetch: globalThis.fetch, maxRetries: 0 });
    const t0 = mock.clock.now();
    await expect(onClock.transactions.waitForAttribution(transactionId)).rejects.toBeInstanceOf(
      PollTimeoutError,
    );
    expect(mock.clock.now() - t0).toBeGreaterThanOrEqual(120_000);
  });

  it('throws TransactionStatusError for a failed payout, as in the default profile', async () => {
    const { mock, client, transactionId } = await paidOut('strict', '66.60');
    await mock.clock.advance('20s');
    const waited = client.transactions.waitForAttribution(transactionId);
    await expect(waited).rejects.toBeInstanceOf(TransactionStatusError);
    await expect(waited).rejects.toMatchObject({ status: 'failed' });
  });
});
