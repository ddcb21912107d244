/**
 * `waitForAttribution` from any status before the payout, on the mock's virtual clock (a client on
 * `mock.clientClock`, so each poll interval moves the mock's clock and nothing sleeps for real): it waits through
 * the deposit's confirmations on the slow networks, moves its default deadline with each stage, keeps a deadline
 * the caller gives, and fails at once where no payout will come.
 */
import { describe, expect, it } from 'vitest';
import { createMockService, type MockServiceOptions } from '../../../mock/index.js';
import {
  ATTRIBUTION_POLL,
  type ClientClock,
  confirmationMs,
  PayoutClient,
  PollTimeoutError,
  TRANSACTION_POLL,
  TransactionStatusError,
  UnattributedPayoutError,
} from '../../../src/index.js';

type Network = Parameters<PayoutClient['transactions']['create']>[0]['network'];

function setup(options: MockServiceOptions = {}, clockOf?: (clock: ClientClock) => ClientClock) {
  const mock = createMockService({ seed: 'wait-for-attribution', ...options });
  const client = new PayoutClient({
    apiKey: mock.sandboxKey,
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    clock: clockOf ? clockOf(mock.clientClock) : mock.clientClock,
  });
  const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
  /** A 100-unit transaction for the seeded user on `network`: its ID. */
  const create = async (network: Network, asset: 'USDC' | 'USDT' = 'USDC') =>
    (await client.transactions.create({ userId, amount: '100', asset, network })).transactionId;
  return { mock, client, userId, create };
}

const slow = ['polygon', 'ethereum'] as const;

describe('waitForAttribution through the confirmations (polygon 256 s, ethereum 144 s: more than 2 minutes)', () => {
  it('the published confirmation times are the ones the mock plays', () => {
    const { mock } = setup();
    expect(confirmationMs('polygon')).toBe(256_000);
    expect(confirmationMs('ethereum')).toBe(144_000);
    for (const network of slow)
      expect(mock.helpers.transactions.confirmationMs(network)).toBe(confirmationMs(network));
    expect(confirmationMs('polygon')).toBeGreaterThan(ATTRIBUTION_POLL.deadline);
    // A network added later gets the longest known time, never less.
    expect(confirmationMs('tron')).toBe(256_000);
  });

  for (const network of slow) {
    it(`${network}: called just after the deposit (deposit_pending), it waits through every confirmation to the attribution`, async () => {
      const { mock, client, create } = setup();
      const transactionId = await create(network);
      const confirmMs = mock.helpers.transactions.simulateDeposit({ transactionId });
      expect((await client.transactions.retrieve(transactionId)).transaction.status).toBe('deposit_pending');
      const t0 = mock.clock.now();
      const paid = await client.transactions.waitForAttribution(transactionId);
      expect(paid.payout.rate).toBe('83.10');
      expect(paid.payout.allocations.length).toBeGreaterThan(0);
      expect(mock.clock.now() - t0).toBeGreaterThanOrEqual(confirmMs);
      expect(mock.helpers.transactions.get(transactionId).status).not.toBe('failed');
    });

    it(`${network}: called halfway through the confirmations (deposit_detected), it waits through the rest`, async () => {
      const { mock, client, create } = setup();
      const transactionId = await create(network, 'USDT');
      const confirmMs = mock.helpers.transactions.simulateDeposit({ transactionId });
      await mock.clock.advance(confirmMs / 2);
      const read = await client.transactions.retrieve(transactionId);
      expect(read.transaction.status).toBe('deposit_detected');
      expect(read.deposit.confirmations).toBeLessThan(read.deposit.requiredConfirmations ?? 0);
      const paid = await client.transactions.waitForAttribution(transactionId);
      expect(paid.payout.usdtEquivalent).toBeTruthy();
    });

    it(`${network}: called while still created, it waits for a deposit that comes late and then through its confirmations`, async () => {
      let transactionId = '';
      let depositedAt: number | undefined;
      // The user sends the deposit 14 virtual minutes into the wait: within the deposit's 15 minutes, but the
      // confirmations that follow end past them, so only a deadline that moves with the stages gets there.
      const { mock, client, create } = setup({}, (clock) => ({
        now: clock.now,
        async sleep(ms, signal) {
          await clock.sleep(ms, signal);
          if (depositedAt === undefined && clock.now() - started >= 14 * 60_000) {
            depositedAt = clock.now();
            mock.helpers.transactions.simulateDeposit({ transactionId });
          }
        },
      }));
      transactionId = await create(network);
      const started = mock.clock.now();
      // A longer interval than the default only makes fewer reads; the default deadline is the same.
      const paid = await client.transactions.waitForAttribution(transactionId, { interval: 10_000 });
      expect(paid.payout.rate).toBe('83.10');
      expect(depositedAt).toBeDefined();
      expect(mock.clock.now() - started).toBeGreaterThan(TRANSACTION_POLL.deadline);
    });
  }

  it('still created with no deposit ever: it times out after the deposit stage, saying the deposit must come first', async () => {
    const { mock, client, create } = setup();
    const transactionId = await create('polygon');
    const t0 = mock.clock.now();
    const failure = await client.transactions
      .waitForAttribution(transactionId, { interval: 10_000 })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PollTimeoutError);
    expect(failure).toMatchObject({ deadline: TRANSACTION_POLL.deadline });
    expect(String(failure)).toMatch(
      /still created: the payout starts only after a deposit and its confirmations/,
    );
    expect(String(failure)).toMatch(/mock\.helpers\.transactions\.simulateDeposit first/);
    expect(mock.clock.now() - t0).toBe(TRANSACTION_POLL.deadline);
  });

  it("a deadline of the caller's is kept: it does not move with the stages", async () => {
    const { mock, client, create } = setup();
    const transactionId = await create('polygon');
    mock.helpers.transactions.simulateDeposit({ transactionId });
    const t0 = mock.clock.now();
    const failure = await client.transactions
      .waitForAttribution(transactionId, { deadline: 60_000 })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PollTimeoutError);
    expect(String(failure)).toContain('after 60000 ms; it may still get there');
    expect(mock.clock.now() - t0).toBe(60_000);
  });
});

describe('waitForAttribution fails at once where no payout (or no attribution) will come', () => {
  it('an expired quote (cancelled): TransactionStatusError naming the status, with no time spent waiting', async () => {
    const { mock, client, create } = setup();
    const transactionId = await create('ethereum');
    await mock.clock.advance('31m');
    const t0 = mock.clock.now();
    const failure = await client.transactions.waitForAttribution(transactionId).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TransactionStatusError);
    expect(failure).toMatchObject({ status: 'cancelled' });
    expect(String(failure)).toContain('ended as cancelled');
    expect(mock.clock.now()).toBe(t0);
  });

  it('a prefunded payout, in the strict profile (no attributionStatus): UnattributedPayoutError at once', async () => {
    const { mock, client, userId } = setup({
      profile: 'strict',
      account: { prefunded: { approved: true, creditLimitUsd: '10000' } },
    });
    const { transactionId } = await client.transactions.createPrefunded({
      userId,
      amount: '100',
      asset: 'USDT',
      network: 'polygon',
    });
    await mock.clock.advance('11s');
    const read = await client.transactions.retrieve(transactionId);
    expect(read.transaction.status).toBe('awaiting_funds');
    expect(read.payout).not.toHaveProperty('attributionStatus');
    const t0 = mock.clock.now();
    await expect(client.transactions.waitForAttribution(transactionId)).rejects.toBeInstanceOf(
      UnattributedPayoutError,
    );
    expect(mock.clock.now()).toBe(t0);
  });
});
