/**
 * Types that catch typos: each misspelling or mix-up a partner made on a first day fails to compile here
 * (`@ts-expect-error` fails `npm run typecheck` if the line ever compiles), and the right spelling works against
 * the mock at run time. The consumer matrix's TypeScript project (test/consumers/typescript/src/typos.ts) checks
 * the same lines against the packed package.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createMockService } from '../../mock/index.js';
import type { Asset, Network, Transaction, WebhookEventStatus } from '../../src/index.js';

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
