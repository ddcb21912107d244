/**
 * `mock.createClient`: a client whose every wait runs on the mock's virtual clock, and whose requests go
 * through `mock.fetch` (no msw here: nothing intercepts). Waiting for attribution on a fresh mock, and a 429
 * retry, cost virtual time only. The README's flow runs as printed against it.
 */
import { describe, expect, it } from 'vitest';
import { createMockService } from '../../../mock/index.js';

describe('mock.createClient: waits on the virtual clock', () => {
  it("2.4: the README's flow (waitForStatus, then waitForAttribution) gets its attribution on a fresh mock with no tranche set-up, in virtual time only", async () => {
    const mock = createMockService();
    const client = mock.createClient();
    const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210', name: 'Asha Rao' });

    // As printed in the README.
    const created = await client.transactions.create({
      userId,
      amount: '250.00',
      asset: 'USDC',
      network: 'polygon',
      partnerReference: 'order-42',
    });
    mock.helpers.transactions.simulateDeposit({ transactionId: created.transactionId });
    const virtual0 = mock.clock.now();
    const wall0 = performance.now();
    await client.transactions.waitForStatus(created.transactionId);
    const paid = await client.transactions.waitForAttribution(created.transactionId);
    const wall = performance.now() - wall0;
    const virtual = mock.clock.now() - virtual0;

    expect(paid.transaction.status).toBe('completed');
    expect(paid.payout.utr).toMatch(/^SBX\d{12}$/);
    expect(paid.payout.rate).toBe('83.10');
    expect(paid.payout.allocations.map((a) => [a.dealNumber, a.inrAmount])).toEqual([
      ['SBX-0001', paid.payout.amountInr],
    ]);
    // polygon's 128 confirmations of 2 s alone are 256 s: the polls advanced the clock instead of sleeping.
    expect(virtual).toBeGreaterThanOrEqual(256_000);
    expect(wall).toBeLessThan(virtual);
  });

  it('7.6: a 429 with retryAfter 30 is retried after 30 virtual seconds, with no real wait', async () => {
    const mock = createMockService();
    mock.helpers.accounts.update({ limits: { rateLimit: 1 } });
    const answers: Array<Promise<[number, unknown]>> = [];
    // The client's fetch is mock.fetch by default; this one records each answer on its way.
    const recording: typeof fetch = async (input, init) => {
      const response = await mock.fetch(input, init);
      answers.push(
        response
          .clone()
          .json()
          .then((body: unknown) => [response.status, body]),
      );
      return response;
    };
    const client = mock.createClient({ fetch: recording });
    await client.users.create({ mobile: '9876543210' }); // the minute's one request
    await mock.clock.advance('30s'); // the window resets 30 s from now
    const virtual0 = mock.clock.now();
    const wall0 = performance.now();
    const user = await client.users.create({ mobile: '9876543211' });
    const wall = performance.now() - wall0;

    expect(user.mobile).toBe('+919876543211');
    const seen = await Promise.all(answers);
    expect(seen.map(([status]) => status)).toEqual([201, 429, 201]);
    expect(seen[1]?.[1]).toMatchObject({ error: 'Rate Limit Exceeded', retryAfter: 30 });
    expect(mock.clock.now() - virtual0).toBeGreaterThanOrEqual(30_000);
    expect(wall).toBeLessThan(30_000);
  });
});
