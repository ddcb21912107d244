/**
 * The mock's virtual clock as a client clock, and `mock.createClient` wired to the mock: every wait (a poll, a 429's
 * retry) costs virtual time only, here and again on the strict profile.
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockService } from '../../../mock/index.js';
import { mswHandlers } from '../../../mock/msw/index.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('mock.clientClock', () => {
  it('now is virtual time; sleep(ms) advances the virtual clock by ms and runs the timers that fall due', async () => {
    const mock = createMockService();
    const t0 = mock.clock.now();
    expect(mock.clientClock.now()).toBe(t0);
    mock.helpers.accounts.update({ webhookUrl: 'https://partner.test/hooks' });
    mock.helpers.webhooks.useFetch(async () => new Response(null, { status: 500 }));
    server.use(...mswHandlers(mock));
    await mock.createClient().users.create({ mobile: '9876543210' });
    await mock.clientClock.sleep(30_000);
    expect(mock.clock.now()).toBe(t0 + 30_000);
    expect(mock.clientClock.now()).toBe(t0 + 30_000);
    // The delivery's whole retry schedule ran inside the sleep.
    expect(mock.helpers.webhooks.events()[0]).toMatchObject({ status: 'failed', attempts: 5 });
  });

  it('an aborted signal rejects with its reason and does not move the clock', async () => {
    const mock = createMockService();
    const t0 = mock.clock.now();
    const reason = new Error('stop');
    await expect(mock.clientClock.sleep(1_000, AbortSignal.abort(reason))).rejects.toBe(reason);
    expect(mock.clock.now()).toBe(t0);
  });
});

describe('mock.createClient', () => {
  it("answers with the mock's base URL and default sandbox key; options override them", async () => {
    const mock = createMockService();
    server.use(...mswHandlers(mock));
    const client = mock.createClient();
    const user = await client.users.create({ mobile: '9876543210' });
    expect(mock.state.users.byId[user.userId]).toMatchObject({ mobile: '+919876543210' });
    const other = mock.helpers.accounts.create({ name: 'Second partner' });
    const second = mock.createClient({ apiKey: other.keys.sandbox });
    await second.users.create({ mobile: '9876543211' });
    expect(mock.helpers.webhooks.events().map((e) => e.accountId)).toEqual([mock.accountId, other.id]);
  });
});

// `mock.createClient`: a client whose every wait runs on the mock's virtual clock, and whose requests go
// through `mock.fetch` (no msw here: nothing intercepts). Waiting for attribution on a fresh mock, and a 429
// retry, cost virtual time only. The README's flow runs as printed against it.
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
