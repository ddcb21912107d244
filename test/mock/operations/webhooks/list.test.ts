import { describe, expect, it } from 'vitest';
import { WebhookEventListBody } from '../../../../src/schemas/webhooks.js';
import { moneyMock } from '../../../support/money-mock.js';

const mock = moneyMock();

describe('2.11, 4.12: the webhook event list', () => {
  it('4.12: pages newest first (default page 1, 20 per page) with pagination, and filters by status', async () => {
    const { service, client, call } = mock.use();
    for (let i = 0; i < 25; i++)
      await client.users.create({ mobile: `98765432${String(i).padStart(2, '0')}` });
    // Their first attempts find no webhook URL, so all 25 stay pending.
    await service.clock.runDue();
    service.helpers.accounts.update({ webhookUrl: 'http://127.0.0.1:9/hooks' });
    service.helpers.webhooks.useFetch(async () => new Response('ok'));
    const oldest = service.helpers.webhooks.events()[0];
    if (!oldest) throw new Error('no events');
    await client.webhooks.retry(oldest.id);
    await service.clock.runDue();

    const first = await call('GET', '/v2/webhooks');
    const body = WebhookEventListBody.parse(first.body);
    expect(body.pagination).toEqual({ page: 1, limit: 20, total: 25, totalPages: 2 });
    expect(body.data).toHaveLength(20);
    const second = await client.webhooks.list({ page: 2 });
    expect(second.pagination).toEqual({ page: 2, limit: 20, total: 25, totalPages: 2 });
    expect(second.data).toHaveLength(5);
    expect(second.data.at(-1)?.id).toBe(oldest.id);

    const delivered = await client.webhooks.list({ status: 'delivered' });
    expect(delivered.data.map((e) => e.id)).toEqual([oldest.id]);
    expect(delivered.pagination).toEqual({ page: 1, limit: 20, total: 1, totalPages: 1 });
    const pending = await client.webhooks.list({ status: 'pending', limit: 10, page: 3 });
    expect(pending.pagination).toEqual({ page: 3, limit: 10, total: 24, totalPages: 3 });
    expect(pending.data).toHaveLength(4);
    const all: string[] = [];
    for await (const event of client.webhooks.listAutoPaging({ limit: 7 })) all.push(event.id);
    expect(new Set(all).size).toBe(25);
  });

  it('4.12: a bad page, limit or status answers 400 VALIDATION_ERROR', async () => {
    const { call } = mock.use();
    for (const query of ['page=0', 'limit=101', 'status=lost', 'page=abc']) {
      const answer = await call('GET', `/v2/webhooks?${query}`);
      expect([query, answer.status, answer.body.code]).toEqual([query, 400, 'VALIDATION_ERROR']);
    }
  });

  it('2.11: another account sees only its own events', async () => {
    const { service, client, call } = mock.use();
    await client.users.create({ mobile: '9876543210' });
    const other = service.helpers.accounts.create({ name: 'Other' });
    const answer = await call('GET', '/v2/webhooks', { key: other.keys.sandbox });
    expect(answer.body.pagination).toMatchObject({ total: 0 });
  });

  it('a webhook URL set and then cleared (accounts.update with null): the account reads without one, events stay pending', async () => {
    const { service, client } = mock.use();
    service.helpers.accounts.update({ webhookUrl: 'http://127.0.0.1:9/hooks' });
    service.helpers.accounts.update({ webhookUrl: null });
    expect(service.helpers.accounts.get().webhookUrl).toBeUndefined();
    expect((await client.account.retrieve()).webhookUrl).toBeUndefined();
    let posted = 0;
    service.helpers.webhooks.useFetch(async () => {
      posted += 1;
      return new Response('ok');
    });
    await client.users.create({ mobile: '9876543299' });
    await service.clock.runDue();
    expect(posted).toBe(0);
    expect(service.helpers.webhooks.events().map((e) => [e.status, e.attempts])).toEqual([['pending', 0]]);
  });
});
