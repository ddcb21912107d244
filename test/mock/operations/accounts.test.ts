import { describe, expect, it } from 'vitest';
import { APIConnectionError, type APIError } from '../../../src/index.js';
import { Account, ActivityList, DeveloperFee } from '../../../src/schemas/account.js';
import { moneyMock, verifiedUser } from '../../support/money-mock.js';

const mock = moneyMock();
const BODY = { amount: '100', asset: 'USDC', network: 'arbitrum' } as const;

describe('2.1, 4.1: the account', () => {
  it('2.1: GET /v2/account with the key prefix, webhook URL, rate limit and volume from completed transactions', async () => {
    const { service, client } = mock.use({
      account: { name: 'Acme', webhookUrl: 'https://acme.test/hooks' },
    });
    const before = await client.account.retrieve();
    expect(Account.parse(before)).toEqual(before);
    expect(before).toMatchObject({
      id: service.accountId,
      name: 'Acme',
      environment: 'sandbox',
      status: 'active',
      apiKeyPrefix: service.sandboxKey.slice(0, 15),
      webhookUrl: 'https://acme.test/hooks',
      volume: { monthlyUsd: 0, totalUsd: 0 },
      limits: { rateLimit: 600 },
    });
    service.helpers.webhooks.useFetch(async () => new Response('ok'));
    const created = await client.transactions.create({
      userId: verifiedUser(service),
      ...BODY,
      amount: '120.50',
    });
    await service.clock.advance(
      service.helpers.transactions.simulateDeposit({ transactionId: created.transactionId }),
    );
    expect((await client.account.retrieve()).volume).toEqual({ monthlyUsd: 0, totalUsd: 0 });
    await service.clock.advance('10s');
    expect((await client.account.retrieve()).volume).toEqual({ monthlyUsd: 120.5, totalUsd: 120.5 });
    // Next month the monthly figure starts again; the total does not.
    await service.clock.advance('31d');
    expect((await client.account.retrieve()).volume).toEqual({ monthlyUsd: 0, totalUsd: 120.5 });
  });

  it('2.1: a state without the kept volume is refused by restore, saying what is missing, and the volume stays', async () => {
    const { service, client } = mock.use();
    service.helpers.webhooks.useFetch(async () => new Response('ok'));
    for (const [mobile, amount] of [
      ['9876500001', '100'],
      ['9876500002', '20.50'],
    ] as const) {
      const created = await client.transactions.create({
        userId: verifiedUser(service, mobile),
        ...BODY,
        amount,
      });
      await service.clock.advance(
        service.helpers.transactions.simulateDeposit({ transactionId: created.transactionId }),
      );
      await service.clock.advance('10s');
    }
    const kept = (await client.account.retrieve()).volume;
    expect(kept).toEqual({ monthlyUsd: 120.5, totalUsd: 120.5 });
    const saved = service.helpers.snapshot();
    // A state of a layout before the volume was kept: never released, so refused rather than rebuilt.
    Reflect.deleteProperty(saved.transactions, 'volumeByAccount');
    expect(() => service.helpers.restore(saved)).toThrow(
      'Cannot restore: not a mock state of version 1: transactions.volumeByAccount: missing',
    );
    expect((await client.account.retrieve()).volume).toEqual(kept);
  });

  it('2.2, 4.1: PUT /v2/account/developer-fee sets the fee and says so; 400 stating the allowed range outside 0 to 0.05', async () => {
    const { client, call } = mock.use();
    const fee = await client.account.updateDeveloperFee({ enabled: true, percent: 0.05 });
    expect(DeveloperFee.parse(fee)).toEqual({ enabled: true, percent: 0.05 });
    const answer = await call('PUT', '/v2/account/developer-fee', { body: { enabled: true, percent: 0.01 } });
    expect(answer.body).toMatchObject({
      success: true,
      message: 'Developer fee enabled at 1%; it applies to new transactions',
    });
    const bad = await call('PUT', '/v2/account/developer-fee', { body: { enabled: true, percent: 0.051 } });
    expect(bad.status).toBe(400);
    expect(String(bad.body.message)).toMatch(
      /percent must be a number from 0 to 0.05 inclusive \(0% to 5%\)/,
    );
  });

  it('2.5 (assumed GET /v2/account/credit): not approved means no credit', async () => {
    const { client } = mock.use();
    expect(await client.account.retrieveCredit()).toEqual({
      prefundedEnabled: false,
      creditLimitUsd: '0',
      outstandingUsd: '0',
      availableUsd: '0',
    });
  });
});

describe('2.6, 4.1: the activity feed', () => {
  it('4.1: most recent first, limit default 10 and max 50; payoutAmountInr null until the payout is processed', async () => {
    const { service, client, call } = mock.use();
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const userId = verifiedUser(service, `98765432${String(i).padStart(2, '0')}`, `User ${i}`);
      ids.push((await client.transactions.create({ userId, ...BODY })).transactionId);
      await service.clock.advance('1s');
    }
    const recent = await client.account.listActivity();
    expect(ActivityList.parse(recent)).toEqual(recent);
    expect(recent.map((a) => a.id)).toEqual(ids.slice(2).reverse());
    expect(recent[0]).toMatchObject({
      status: 'created',
      depositAmount: '100',
      depositAsset: 'USDC',
      depositNetwork: 'arbitrum',
      payoutAmountInr: null,
      payoutStatus: 'pending',
      user: { name: 'User 11' },
    });
    expect(await client.account.listActivity({ limit: 50 })).toHaveLength(12);
    expect((await call('GET', '/v2/account/activity?limit=51')).status).toBe(400);
    expect((await call('GET', '/v2/account/activity?limit=0')).status).toBe(400);

    const last = ids.at(-1) ?? '';
    await service.clock.advance(service.helpers.transactions.simulateDeposit({ transactionId: last }));
    const processing = (await client.account.listActivity({ limit: 1 }))[0];
    expect(processing).toMatchObject({
      id: last,
      status: 'payout_processing',
      payoutStatus: 'processing',
      payoutAmountInr: null,
    });
    await service.clock.advance('10s');
    const done = (await client.account.listActivity({ limit: 1 }))[0];
    expect(done).toMatchObject({
      id: last,
      status: 'completed',
      payoutStatus: 'completed',
      payoutAmountInr: '8325.00',
    });
    expect(done?.updatedAt).not.toBe(done?.createdAt);
  });

  it('fault injection: a create whose answer is dropped after commit is replayed by its idempotency key, one transaction only', async () => {
    const { service, client } = mock.use();
    const userId = verifiedUser(service);
    service.helpers.faults.inject({ match: { path: '/v2/transactions' }, kind: 'drop-after-commit' });
    const key = '0b8f7c1e-5d4a-4c3b-9a2f-1e0d9c8b7a65';
    const lost = await client.transactions
      .create({ userId, ...BODY }, { idempotencyKey: key })
      .catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(Error);
    // No answer came: an APIConnectionError, an APIError with no status.
    expect(lost).toBeInstanceOf(APIConnectionError);
    expect((lost as APIError).status).toBeUndefined();
    const replay = await client.transactions.create({ userId, ...BODY }, { idempotencyKey: key });
    expect(Object.keys(service.state.transactions.byId)).toEqual([replay.transactionId]);
  });

  it('fault injection: a 5xx before the work leaves no transaction; latency only delays the answer', async () => {
    const { service, client } = mock.use();
    const userId = verifiedUser(service);
    service.helpers.faults.inject({
      match: { method: 'POST', path: '/v2/transactions' },
      kind: 'error',
      status: 503,
    });
    await expect(client.transactions.create({ userId, ...BODY })).rejects.toMatchObject({ status: 503 });
    expect(Object.keys(service.state.transactions.byId)).toEqual([]);
    service.helpers.faults.inject({ match: { path: '/v2/account/activity' }, kind: 'latency', ms: 5 });
    const created = await client.transactions.create({ userId, ...BODY });
    expect((await client.account.listActivity()).map((a) => a.id)).toEqual([created.transactionId]);
  });
});
