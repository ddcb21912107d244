// The exactly-once ledger: per Idempotency-Key and per partnerReference, the users, transactions and payouts
// each logical create produced, duplicates flagged; in-process, and on the standalone server under `--chaos`
// (`GET /__mock/ledger`).
import { describe, expect, it } from 'vitest';
import { startServer } from '../server/support.js';
import { mockServer } from '../support.js';

const TXN = { amount: '100', asset: 'USDT', network: 'polygon' } as const;

describe('helpers.ledger() (PRODUCT.md, exactly one effect per logical create)', () => {
  // The MSW server lives in this block only: the standalone server's block below sends real requests.
  const mock = mockServer();

  it('counts a keyed user create once, however often it is replayed', async () => {
    const { service, call } = mock.use();
    for (let i = 0; i < 3; i++) {
      await call('POST', '/v2/users', { body: { mobile: '9876543210' }, idempotencyKey: 'user-key-1' });
    }
    const ledger = service.helpers.ledger();
    const userId = Object.keys(service.state.users.byId)[0];
    expect(ledger.byIdempotencyKey).toEqual([
      {
        accountId: service.state.accounts.defaultId,
        key: 'user-key-1',
        users: 1,
        transactions: 0,
        payouts: 0,
        ids: [userId],
        duplicate: false,
      },
    ]);
    expect(ledger).toMatchObject({ ok: true, duplicates: [], totals: { users: 1, usersWithoutKey: 0 } });
  });

  it('counts transactions per key and per partnerReference, and the payout a prefunded create starts', async () => {
    const { service, call } = mock.use();
    service.helpers.accounts.update({ prefunded: { approved: true, creditLimitUsd: '1000' } });
    const a = service.helpers.users.seedVerified({ mobile: '9876543210' }).userId;
    const b = service.helpers.users.seedVerified({ mobile: '9876543211' }).userId;
    const c = service.helpers.users.seedVerified({ mobile: '9876543212' }).userId;
    await call('POST', '/v2/transactions', {
      body: { ...TXN, userId: a, partnerReference: 'order-a' },
      idempotencyKey: 'k-a',
    });
    await call('POST', '/v2/transactions/prefunded', {
      body: { ...TXN, userId: b, partnerReference: 'order-b' },
      idempotencyKey: 'k-b',
    });
    // Without a key: only the reference accounts for it. Without either: the per-user view.
    await call('POST', '/v2/transactions', { body: { ...TXN, userId: c } });
    const ledger = service.helpers.ledger();
    expect(ledger.byIdempotencyKey.map((r) => [r.key, r.transactions, r.payouts])).toEqual([
      ['k-a', 1, 0],
      ['k-b', 1, 1],
    ]);
    expect(ledger.byPartnerReference.map((r) => [r.key, r.transactions, r.payouts])).toEqual([
      ['order-a', 1, 0],
      ['order-b', 1, 1],
    ]);
    expect(ledger.totals).toEqual({
      users: 3,
      transactions: 3,
      payouts: 1,
      transactionsWithoutReference: 1,
      usersWithoutKey: 3,
    });
    expect(ledger.unattributedByUser.map((r) => [r.key, r.transactions, r.duplicate])).toEqual([
      [c, 1, false],
    ]);
    expect(ledger.ok).toBe(true);
  });

  it('flags a user with two transactions created with neither key nor reference: a resend cannot be told from a second order', async () => {
    const { service, call } = mock.use();
    const userId = service.helpers.users.seedVerified({ mobile: '9876543210' }).userId;
    const first = await call('POST', '/v2/transactions', { body: { ...TXN, userId } });
    // While the first is active the resend is refused (spec 7.3); once its quote expires, nothing refuses it.
    expect((await call('POST', '/v2/transactions', { body: { ...TXN, userId } })).status).toBe(409);
    await service.helpers.clock.advance('31m');
    const second = await call('POST', '/v2/transactions', { body: { ...TXN, userId } });
    expect([first.status, second.status]).toEqual([201, 201]);
    const ledger = service.helpers.ledger();
    const row = {
      accountId: service.state.accounts.defaultId,
      key: userId,
      users: 0,
      transactions: 2,
      payouts: 0,
      ids: [first, second].map((answer) => (answer.body.data as { transactionId: string }).transactionId),
      duplicate: true,
    };
    expect(ledger.unattributedByUser).toEqual([row]);
    expect(ledger.duplicates).toEqual([{ ...row, by: 'unattributedByUser' }]);
    expect(ledger.ok).toBe(false);
  });

  it('flags a reference and a key that produced two transactions', async () => {
    const { service, call } = mock.use();
    const userId = service.helpers.users.seedVerified({ mobile: '9876543210' }).userId;
    await call('POST', '/v2/transactions', {
      body: { ...TXN, userId, partnerReference: 'order-1' },
      idempotencyKey: 'k-1',
    });
    // A state in which one logical create took effect twice (what a broken idempotency layer would leave).
    const state = service.helpers.snapshot();
    const [original] = Object.values(state.transactions.byId);
    if (!original) throw new Error('no transaction');
    state.transactions.byId.txn_copy = { ...original, id: 'txn_copy' };
    const [entry] = state.http.ledger ?? [];
    if (!entry) throw new Error('no ledger entry');
    state.http.ledger?.push({ ...entry, id: 'txn_copy' });
    service.helpers.restore(state);
    const ledger = service.helpers.ledger();
    expect(ledger.ok).toBe(false);
    expect(ledger.duplicates.map((d) => [d.by, d.key, d.transactions, d.ids])).toEqual([
      ['idempotencyKey', 'k-1', 2, [original.id, 'txn_copy']],
      ['partnerReference', 'order-1', 2, [original.id, 'txn_copy']],
    ]);
  });

  it('ignores creates that failed and keyed requests that are not creates', async () => {
    const { service, call } = mock.use();
    await call('POST', '/v2/users', { body: { mobile: 'not a mobile' }, idempotencyKey: 'bad' });
    const userId = service.helpers.users.seedVerified({ mobile: '9876543210' }).userId;
    await call('POST', `/v2/users/${userId}/verify/email/send`, { idempotencyKey: 'not-a-create' });
    expect(service.helpers.ledger().byIdempotencyKey).toEqual([]);
  });
});

describe('GET /__mock/ledger on the standalone server, under --chaos', () => {
  it('serves the ledger; with --chaos 5,rate=1,kinds=5xx every API request draws a 5xx', async () => {
    const server = await startServer(['--chaos', '5,rate=1,kinds=5xx,method=POST']);
    /** A user create sent with the idempotency key `key`. */
    const create = (key: string) =>
      server.call('POST', '/v2/users', { mobile: '9876543210' }, { 'Idempotency-Key': key });
    try {
      expect(server.output()).toMatch(/chaos: +seed 5/);
      const refused = await create('k');
      expect([500, 502, 503, 504]).toContain(refused.status);
      expect((await server.call('GET', '/v2/account')).status).toBe(200);
      await server.helper('/faults/clear');
      expect((await create('k')).status).toBe(201);
      const ledger = await fetch(`${server.url}/__mock/ledger`).then((r) => r.json());
      expect(ledger.data).toMatchObject({ ok: true, byIdempotencyKey: [{ key: 'k', users: 1 }] });
      // A reset makes the start-up options again: chaos, ended by faults/clear, is back with its seed.
      await server.helper('reset');
      const again = await create('k2');
      expect([500, 502, 503, 504]).toContain(again.status);
    } finally {
      await server.stop();
    }
  }, 30_000);
});
