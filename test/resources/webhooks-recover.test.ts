// client.webhooks.recover against the mock: what it lists, what it retries, and that a repeat is harmless.
import { createMockService } from 'inr-payouts/mock';
import { describe, expect, test } from 'vitest';

async function failedEvents() {
  const mock = createMockService();
  const client = mock.createClient();
  // A receiver that refuses everything: each event fails after its five attempts.
  mock.helpers.webhooks.useFetch(async () => new Response(null, { status: 503 }));
  mock.helpers.accounts.update({ webhookUrl: 'https://partner.example/webhooks' });
  await client.users.create({ mobile: '9876543210' });
  await mock.clock.advance('1m');
  const later = mock.helpers.clock.now();
  await client.users.create({ mobile: '9876543211' });
  await mock.clock.advance('1m');
  return { mock, client, later };
}

describe('client.webhooks.recover', () => {
  test('retries every failed event, oldest first, and the next delivery succeeds', async () => {
    const { mock, client } = await failedEvents();
    const failed = mock.helpers.webhooks.events().filter((e) => e.status === 'failed');
    expect(failed).toHaveLength(2);
    // The receiver is back: each retry is sent as soon as its request is answered.
    mock.helpers.webhooks.useFetch(async () => new Response('ok'));
    const { retried } = await client.webhooks.recover();
    // The service lists newest first; recover retries in the order the events happened (the helper's order).
    expect(retried.map((r) => r.id)).toEqual(failed.map((e) => e.id));
    expect(retried.every((r) => r.status === 'pending')).toBe(true);
    await mock.helpers.webhooks.settle();
    expect(mock.helpers.webhooks.events().map((e) => [e.status, e.attempts])).toEqual([
      ['delivered', 6],
      ['delivered', 6],
    ]);
  });

  test('since keeps the events created at or after it; statuses chooses the lists', async () => {
    const { client, later } = await failedEvents();
    expect((await client.webhooks.recover({ since: later })).retried).toHaveLength(1);
    expect((await client.webhooks.recover({ statuses: ['delivered'] })).retried).toEqual([]);
  });

  test('run twice at once: the second run replays each retry, nothing is sent twice', async () => {
    const { mock, client } = await failedEvents();
    let deliveries = 0;
    mock.helpers.webhooks.useFetch(async () => {
      deliveries++;
      return new Response('ok');
    });
    const [first, second] = await Promise.all([client.webhooks.recover(), client.webhooks.recover()]);
    expect(second.retried.map((r) => r.id)).toEqual(first.retried.map((r) => r.id));
    await mock.helpers.webhooks.settle();
    expect(deliveries).toBe(2);
  });

  test('a since that is no time is refused before any request', async () => {
    const { client } = await failedEvents();
    await expect(client.webhooks.recover({ since: 'yesterday' })).rejects.toThrow(/since must be a Date/);
  });
});
