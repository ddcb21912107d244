/**
 * Types that catch typos: each misspelling or mix-up a partner made on a first day fails to compile here
 * (`@ts-expect-error` fails `npm run typecheck` if the line ever compiles), and the right spelling works against
 * the mock at run time. The consumer matrix's TypeScript project (test/consumers/typescript/src/typos.ts) checks
 * the same lines against the packed package.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createMockService, type Duration, parseDuration } from '../../mock/index.js';
import type { Asset, Network, Transaction, TransactionStatus, WebhookEventStatus } from '../../src/index.js';

describe('types that catch typos', () => {
  it('a response type has no index signature: a misspelt field does not compile, an unknown one still parses', async () => {
    const mock = createMockService();
    const client = mock.createClient();
    const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
    const created = await client.transactions.create({
      userId,
      amount: '100',
      asset: 'USDC',
      network: 'base',
    });
    const done: Transaction = await client.transactions.retrieve(created.transactionId);
    // @ts-expect-error `transactionId` is the create answer's name; a read's transaction says `id`.
    void done.transaction.transactionId;
    expect(done.transaction.id).toBe(created.transactionId);
    // @ts-expect-error no `utr` on the deposit: it is the payout's.
    void done.deposit.utr;
    expectTypeOf<keyof Transaction['transaction']>().not.toEqualTypeOf<string>();
    // A field the service adds later still arrives at run time (z.looseObject); the types name only known ones.
    const parsed = (await import('../../src/index.js')).TransactionInfo.parse({
      id: 'txn_1',
      status: 'created',
      createdAt: '2025-01-01T00:00:00Z',
      addedLater: 1,
    });
    expect(parsed).toMatchObject({ addedLater: 1 });
  });

  it('Asset, Network and WebhookEventStatus type requests; a misspelt value does not compile', async () => {
    const mock = createMockService();
    const client = mock.createClient();
    const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
    const asset: Asset = 'USDT';
    const network: Network = 'polygon';
    const status: WebhookEventStatus = 'failed';
    const created = await client.transactions.create({ userId, amount: '100', asset, network });
    expect(created.depositAsset).toBe('USDT');
    expect((await client.webhooks.list({ status })).data).toEqual([]);
    // @ts-expect-error a typo of USDT
    const typo: Asset = 'USTD';
    void typo;
    // @ts-expect-error not a network the service takes
    const chain: Network = 'tron';
    void chain;
    // A response reads the field open: a known value, or any string added later.
    const read = await client.transactions.retrieve(created.transactionId);
    expectTypeOf(read.deposit.asset).toExtend<string>();
  });

  it("waitForStatus takes only the spec's statuses: 'complete' does not compile, and untyped it is refused at once", async () => {
    const mock = createMockService();
    const client = mock.createClient();
    const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
    const { transactionId } = await client.transactions.create({
      userId,
      amount: '100',
      asset: 'USDC',
      network: 'base',
    });
    const wanted: TransactionStatus[] = ['created', 'deposit_pending'];
    expect(
      (await client.transactions.waitForStatus(transactionId, { statuses: wanted })).transaction.status,
    ).toBe('created');
    // @ts-expect-error a typo of `completed`
    const waited = client.transactions.waitForStatus(transactionId, { statuses: ['complete'] });
    const t0 = mock.clock.now();
    await expect(waited).rejects.toThrow(
      /waitForStatus: unknown status complete, which would never come; use created, .*completed/,
    );
    expect(mock.clock.now()).toBe(t0);
    // @ts-expect-error a response's status is open (a status added later still parses), so it is not an input
    const read: TransactionStatus = (await client.transactions.retrieve(transactionId)).transaction.status;
    void read;
  });

  it("durations are ms or text in the parser's units: '10 minutes' does not compile, and untyped it is refused", async () => {
    const mock = createMockService();
    const t0 = mock.clock.now();
    for (const step of ['10m', '1.5h', '1h30m', '23h59m59s', '500ms', 250] satisfies Duration[])
      await mock.clock.advance(step);
    await mock.helpers.clock.advance('1d');
    // 10 min, 90 min twice, a day less a second, 750 ms, and a day.
    const moved = 600_000 + 2 * 5_400_000 + 86_399_000 + 750 + 86_400_000;
    expect(mock.clock.now() - t0).toBe(moved);
    // @ts-expect-error the unit is `m`
    expect(() => mock.clock.advance('10 minutes')).toThrow(
      "Cannot read the duration '10 minutes': use ms or text like '500ms', '10m', '24h', '1h30m'",
    );
    // @ts-expect-error `min` is no unit
    const typo: Duration = '10min';
    expect(() => parseDuration(typo)).toThrow(RangeError);
    // @ts-expect-error the helper takes the same type
    expect(() => mock.helpers.clock.advance('2 hours')).toThrow(
      "helpers.clock.advance: the argument must be ms or text like '500ms', '10m', '24h', '1h30m' (units ms, s, m, h, d)",
    );
    expect(mock.clock.now() - t0).toBe(moved);
  });

  it('journal.entries({ type }) narrows; captured() names the event as the envelope does and keeps the answer', async () => {
    const mock = createMockService();
    const client = mock.createClient();
    mock.helpers.accounts.update({ webhookUrl: 'https://partner.test/hooks' });
    mock.helpers.webhooks.useFetch(async () => new Response('{"received":true}', { status: 202 }));
    await client.users.create({ mobile: '9876543210' });
    await mock.helpers.webhooks.settle();

    const [request] = mock.journal.entries({ type: 'request' });
    expectTypeOf(request?.status).toEqualTypeOf<number | undefined>();
    expect(request?.status).toBe(201);
    const [timer] = mock.journal.entries({ type: 'timer' });
    // @ts-expect-error a timer entry has no HTTP status
    void timer?.status;

    const [attempt] = mock.helpers.webhooks.captured();
    expect(attempt).toMatchObject({ event: 'user.created', status: 202, responseBody: '{"received":true}' });
    const [event] = mock.helpers.webhooks.events();
    expect(event?.event).toBe(event?.envelope.event);
    expectTypeOf(attempt?.event).toEqualTypeOf(event?.envelope.event);
  });
});
