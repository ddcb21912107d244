import { describe, expect, it } from 'vitest';
import { INSPECTOR_SHOWN, inspectorModel, readQuery } from '../../../../mock/server/inspector/model.js';
import { createMockService } from '../../../../mock/service.js';
import { call, createTransaction, page } from './support.js';

/**
 * The inspector page's model, without a browser: the filters read from the query, and what the page shows for
 * them read from the state (a user's or a transaction's requests, its timeline, its timers); reading it changes
 * nothing. How it is rendered: render.test.ts.
 */

describe('the filters and the model', () => {
  it('reads the filters from the query; unknown or empty values filter nothing', () => {
    expect(readQuery(new URLSearchParams('userId=usr_1&transactionId=&type=nope&limit=-3'))).toEqual({
      userId: 'usr_1',
      transactionId: undefined,
      type: undefined,
      limit: INSPECTOR_SHOWN,
    });
    expect(readQuery(new URLSearchParams('type=webhook&limit=20'))).toMatchObject({
      type: 'webhook',
      limit: 20,
    });
  });

  it('a user’s filter finds requests that name the user only in their body or answer, and no one else’s', async () => {
    const mock = createMockService({ seed: 'inspector-model' });
    const asha = (await call(mock, 'POST', '/v2/users', { mobile: '9876543210', name: 'Asha' })).body.data
      .userId;
    const ravi = (await call(mock, 'POST', '/v2/users', { mobile: '9876543211', name: 'Ravi' })).body.data
      .userId;
    const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543212', name: 'Meera' });
    const transactionId = await createTransaction(mock, userId);
    const model = inspectorModel(mock, readQuery(new URLSearchParams(`userId=${asha}`)));
    expect(model.entries.map((item) => item.entry.type === 'request' && item.entry.status)).toEqual([201]);
    expect(model.entries[0]).toMatchObject({ userId: asha });
    expect(JSON.stringify(model.entries)).not.toContain(ravi);

    const byTransaction = inspectorModel(
      mock,
      readQuery(new URLSearchParams(`transactionId=${transactionId}`)),
    );
    // The create names its transaction only in its answer; the user is the transaction's.
    expect(byTransaction.entries.find((item) => item.entry.type === 'request')).toMatchObject({
      userId,
      transactionId,
    });
    expect(byTransaction.focus).toMatchObject([{ kind: 'transaction', id: transactionId, state: 'created' }]);
    expect(byTransaction.timers.length).toBeGreaterThan(0);
    expect(byTransaction.timers.every((t) => t.ids.transactionId === transactionId)).toBe(true);
    // Reading the page adds nothing to the journal.
    const size = mock.journal.size;
    await page(mock);
    expect(mock.journal.size).toBe(size);
  });

  it('files a read by partnerReference under its transaction, and the timeline runs oldest first with no step back', async () => {
    const mock = createMockService({ seed: 'inspector-reference' });
    mock.helpers.accounts.update({ webhookUrl: 'https://partner.test/hooks' });
    let answer: () => void = () => {};
    // The first delivery is answered only after later requests: its entry is journalled late, dated at its send.
    mock.helpers.webhooks.useFetch(
      () => new Promise<Response>((resolve) => (answer = () => resolve(new Response('ok')))),
    );
    const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543212', name: 'Meera' });
    const transactionId = await createTransaction(mock, userId, { partnerReference: 'order-7' });
    await mock.clock.runDue({ wait: false }); // transaction.created goes out; its answer waits
    await mock.clock.advance('1s', { wait: false });
    expect((await call(mock, 'GET', '/v2/transactions/order-7')).status).toBe(200);
    answer();
    await mock.helpers.webhooks.settle();

    const model = inspectorModel(mock, readQuery(new URLSearchParams(`transactionId=${transactionId}`)));
    const reads = model.entries.filter(
      (item) => item.entry.type === 'request' && item.entry.path === '/v2/transactions/order-7',
    );
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatchObject({ transactionId, userId });
    const times = inspectorModel(mock, readQuery(new URLSearchParams(''))).entries.map(
      (item) => item.entry.at,
    );
    expect(times).toEqual([...times].sort());
    // The journal itself keeps the order things were recorded in: the late attempt comes after the read.
    const journal = mock.journal.entries();
    const attempt = journal.findIndex((e) => e.type === 'webhook');
    const read = journal.findIndex((e) => e.type === 'request' && e.path === '/v2/transactions/order-7');
    expect(attempt).toBeGreaterThan(read);
  });
});

describe('pending timers', () => {
  it('lists each waiting timer with how long until it runs on the virtual clock', async () => {
    const mock = createMockService({ seed: 'inspector-timers' });
    const response = await mock.dispatch(
      new Request(`${mock.baseUrl}/v2/users`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${mock.sandboxKey}`,
          'content-type': 'application/json',
          'idempotency-key': 'key-1',
        },
        body: JSON.stringify({ mobile: '9876543210' }),
      }),
    );
    expect(response?.status).toBe(201);
    const kinds = mock.state.timers.map((t) => t.kind);
    expect(kinds).toContain('idempotency.expire');
    const { html } = await page(mock);
    const timers = html.slice(html.indexOf('<section id="timers"'), html.indexOf('<section id="webhooks"'));
    expect(timers).toContain(`Pending timers (${kinds.length})`);
    // Kept keys expire after 24 hours.
    expect(timers).toMatch(/in 24 h 0 min<\/span><\/td><td class="mono">idempotency\.expire</);
    await mock.clock.advance('23h');
    expect((await page(mock)).html).toContain('in 60 min');
  });
});
