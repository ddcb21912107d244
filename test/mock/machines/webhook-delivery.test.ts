import { afterEach, describe, expect, it } from 'vitest';
import type { MockService } from '../../../mock/index.js';
import { WebhookEvent } from '../../../src/schemas/webhooks.js';
import { verifyWebhook } from '../../../src/webhooks/index.js';
import { moneyMock, type Receiver, startReceiver } from '../../support/money-mock.js';

const mock = moneyMock();
let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

async function setup(answers: number[]) {
  let service: MockService | undefined;
  receiver = await startReceiver(() => {
    if (!service) throw new Error('no service');
    return service;
  }, answers);
  const used = mock.use();
  service = used.service;
  used.service.helpers.accounts.update({ webhookUrl: receiver.url });
  const user = await used.client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
  const [event] = used.service.helpers.webhooks.events({ type: 'user.created' });
  if (!event) throw new Error('no user.created event');
  return { ...used, rx: receiver, eventId: event.id, userId: user.userId, t0: used.service.clock.now() };
}

describe('6.3, 6.4: webhook delivery and retry', () => {
  it('6.4: a receiver failing four times then answering 200 gets attempts at 0, 1, 3, 7 and 15 s; the event is delivered after 5 attempts', async () => {
    const { service, client, rx, eventId, t0 } = await setup([500, 502, 503, 404, 200]);
    await service.clock.advance('1m');
    expect(rx.received.map((r) => r.at - t0)).toEqual([0, 1_000, 3_000, 7_000, 15_000]);
    expect(rx.errors).toEqual([]);
    // 6.3: each one signed with the account's secret over `<t>.<body>`, t the wall clock at the POST.
    for (const r of rx.received) {
      const t = Number(/^t=(\d+),v1=[0-9a-f]{64}$/.exec(String(r.headers['x-service-signature']))?.[1]);
      expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(60);
      expect(r.headers['x-service-event-id']).toBe(eventId);
      expect(r.event).toMatchObject({ id: eventId, event: 'user.created', partnerId: service.accountId });
    }
    const { data } = await client.webhooks.list();
    const record = data.find((e) => e.id === eventId);
    expect(record && WebhookEvent.parse(record)).toEqual({
      id: eventId,
      eventType: 'user.created',
      status: 'delivered',
      attempts: 5,
      deliveredAt: new Date(t0 + 15_000).toISOString(),
      createdAt: new Date(t0).toISOString(),
    });
    const captured = service.helpers.webhooks.captured();
    expect(captured.map((c) => [c.status, c.ok])).toEqual([
      [500, false],
      [502, false],
      [503, false],
      [404, false],
      [200, true],
    ]);
    const last = captured.at(-1);
    expect(
      last && verifyWebhook(last.body, last.headers['x-service-signature'] ?? '', service.webhookSecret).id,
    ).toBe(eventId);
  });

  it('3.4, 6.4: a receiver that always fails gets 5 attempts, then the event is failed; a manual retry delivers again and updates attempts, status and deliveredAt', async () => {
    const { service, client, rx, eventId, t0 } = await setup([500]);
    await service.clock.advance('14s');
    expect((await client.webhooks.list()).data[0]).toMatchObject({
      id: eventId,
      status: 'pending',
      attempts: 4,
    });
    await service.clock.advance('1s');
    expect((await client.webhooks.list()).data[0]).toMatchObject({
      id: eventId,
      status: 'failed',
      attempts: 5,
    });
    await service.clock.advance('10m');
    expect(rx.received).toHaveLength(5);
    expect((await client.webhooks.list({ status: 'failed' })).data.map((e) => e.id)).toEqual([eventId]);

    // Still failing: one more attempt, back to failed.
    const retried = await client.webhooks.retry(eventId);
    expect(WebhookEvent.parse(retried)).toMatchObject({ id: eventId, status: 'pending', attempts: 5 });
    await service.clock.runDue();
    expect((await client.webhooks.list()).data[0]).toMatchObject({ status: 'failed', attempts: 6 });
    expect(rx.received).toHaveLength(6);

    rx.answers.splice(0, rx.answers.length, 200);
    await service.clock.advance('5s');
    await client.webhooks.retry(eventId);
    await service.clock.runDue();
    const at = t0 + 15_000 + 600_000 + 5_000;
    expect((await client.webhooks.list()).data[0]).toMatchObject({
      status: 'delivered',
      attempts: 7,
      deliveredAt: new Date(at).toISOString(),
    });
    expect(rx.received.at(-1)?.at).toBe(at);
    expect(rx.received.every((r) => r.event?.id === eventId)).toBe(true);
    expect(rx.errors).toEqual([]);
  });

  it('6.4: a 30-second time-out is a failure; the next attempt comes 30 s plus its delay later', async () => {
    const used = mock.use();
    used.service.helpers.accounts.update({ webhookUrl: 'http://127.0.0.1:9/hooks' });
    let calls = 0;
    used.service.helpers.webhooks.useFetch(async () => {
      calls += 1;
      if (calls === 1) throw new DOMException('The operation timed out.', 'TimeoutError');
      return new Response('ok');
    });
    const t0 = used.service.clock.now();
    await used.client.users.create({ mobile: '9876543210' });
    await used.service.clock.advance('2m');
    const captured = used.service.helpers.webhooks.captured();
    expect(captured.map((c) => [Date.parse(c.at) - t0, c.error ?? c.status])).toEqual([
      [0, 'timeout'],
      [31_000, 200],
    ]);
  });

  it('6.4: a network error is retried like a non-2xx answer', async () => {
    const used = mock.use();
    used.service.helpers.accounts.update({ webhookUrl: 'http://127.0.0.1:9/hooks' });
    used.service.helpers.webhooks.useFetch(async () => {
      throw new TypeError('fetch failed');
    });
    await used.client.users.create({ mobile: '9876543210' });
    await used.service.clock.advance('1m');
    const [event] = used.service.helpers.webhooks.events();
    expect(event).toMatchObject({ status: 'failed', attempts: 5 });
    expect(event?.deliveries.every((d) => d.error === 'fetch failed')).toBe(true);
  });

  it('2.11: without a webhook URL events are recorded as pending and not sent; 404 EVENT_NOT_FOUND for an unknown retry', async () => {
    const { service, client, call } = mock.use();
    await client.users.create({ mobile: '9876543210' });
    await service.clock.advance('1m');
    expect((await client.webhooks.list()).data[0]).toMatchObject({ status: 'pending', attempts: 0 });
    const missing = await call('POST', '/v2/webhooks/evt_nope/retry');
    expect([missing.status, missing.body.code]).toEqual([404, 'EVENT_NOT_FOUND']);
  });
});

describe('deliveries never stop the clock', () => {
  it('6.4: a receiver that does not answer delays only its own event; its time-out is recorded at the virtual send time and the retry follows at once when the clock has passed it', async () => {
    const used = mock.use({ webhookWaitMs: 50 });
    const { service, client } = used;
    service.helpers.accounts.update({ webhookUrl: 'https://partner.test/hooks' });
    // The first delivery hangs until the test lets it time out; every other one is answered at once.
    let giveUp: (() => void) | undefined;
    service.helpers.webhooks.useFetch(
      (_url, init) =>
        new Promise<Response>((resolve, reject) => {
          if (giveUp) return resolve(new Response('ok'));
          giveUp = () => reject(new DOMException('The operation timed out.', 'TimeoutError'));
          init.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        }),
    );
    const t0 = service.clock.now();
    await client.users.create({ mobile: '9876543210' });
    await service.clock.advance('10s');
    await client.users.create({ mobile: '9876543211' });
    await service.clock.advance('1h');

    const [hung, answered] = service.helpers.webhooks.events({ type: 'user.created' });
    expect(service.clock.now()).toBe(t0 + 10_000 + 3_600_000);
    expect(answered).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(hung).toMatchObject({ status: 'pending', attempts: 0 });

    giveUp?.();
    await service.helpers.webhooks.settle();
    const at = (id?: string) =>
      service.helpers.webhooks
        .captured()
        .filter((d) => d.eventId === id)
        .map((d) => [Date.parse(d.at) - t0, d.error ?? d.status]);
    // Attempt 1 belongs to its send time; attempt 2 was due at 31 s, long passed, so it ran when the answer came.
    expect(at(hung?.id)).toEqual([
      [0, 'timeout'],
      [3_610_000, 200],
    ]);
    expect(at(answered?.id)).toEqual([[10_000, 200]]);
    expect(service.helpers.webhooks.events()[0]).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it('every other timer keeps running while a delivery hangs: the standard quote still expires', async () => {
    const { service, client } = mock.use({ webhookWaitMs: 0 });
    const userId = service.helpers.users.seedVerified({ mobile: '9876543210', name: 'Asha Rao' }).userId;
    service.helpers.accounts.update({ webhookUrl: 'https://partner.test/hooks' });
    const hanging: Array<() => void> = [];
    service.helpers.webhooks.useFetch(
      (_url, init) =>
        new Promise<Response>((_resolve, reject) => {
          hanging.push(() => reject(new DOMException('The operation timed out.', 'TimeoutError')));
          init.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        }),
    );
    const created = await client.transactions.create({
      userId,
      amount: '100',
      asset: 'USDT',
      network: 'arbitrum',
    });
    await service.clock.advance('1h');
    expect(hanging.length).toBeGreaterThan(0);
    expect((await client.transactions.retrieve(created.transactionId)).transaction).toMatchObject({
      status: 'cancelled',
      failureCode: 'QUOTE_EXPIRED',
    });
    for (const give of hanging) give();
    service.helpers.webhooks.useFetch(async () => new Response('ok'));
    await service.helpers.webhooks.settle();
    expect(service.helpers.webhooks.events().every((e) => e.status === 'delivered')).toBe(true);
  });

  it('settle() sends what is due now: attempt 1 after a create and a manual retry, with no clock moved', async () => {
    const { service, client } = mock.use({ webhookWaitMs: 0 });
    service.helpers.accounts.update({ webhookUrl: 'https://partner.test/hooks' });
    const answers = [500, 200];
    service.helpers.webhooks.useFetch(async () => new Response('noted', { status: answers.shift() ?? 200 }));
    const t0 = service.clock.now();
    await client.users.create({ mobile: '9876543210' });
    await service.helpers.webhooks.settle();
    const [event] = service.helpers.webhooks.events({ type: 'user.created' });
    expect(event).toMatchObject({ status: 'pending', attempts: 1 });
    // The automatic retry is 1 s away: settle never moves the clock, so only the manual retry goes out.
    await client.webhooks.retry(event?.id ?? '');
    await service.helpers.webhooks.settle();
    expect(service.clock.now()).toBe(t0);
    expect(service.helpers.webhooks.captured().map((d) => [Date.parse(d.at) - t0, d.status])).toEqual([
      [0, 500],
      [0, 200],
    ]);
    expect(service.helpers.webhooks.events()[0]).toMatchObject({ status: 'delivered', attempts: 2 });
  });
});
