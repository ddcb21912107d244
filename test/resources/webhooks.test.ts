import { createMockService } from 'inr-payouts/mock';
import { signWebhook } from 'inr-payouts/webhooks';
import { HttpResponse } from 'msw';
import { describe, expect, it, test, vi } from 'vitest';
import { NotFoundError, PayoutError, type WebhookEvent, WebhookVerificationError } from '../../src/index.js';
import { webhookEvent } from '../support/fixtures.js';
import { fail, makeClient, ok, only, route, useClient } from '../support/msw.js';

const client = useClient();

const pagination = (page: number, limit: number, total: number) => ({
  page,
  limit,
  total,
  totalPages: Math.ceil(total / limit),
});

describe('webhooks.list', () => {
  it('GETs page, limit and status in the query and reads the events and the pagination beside them', async () => {
    const events = [webhookEvent('evt_1'), webhookEvent('evt_2')];
    const seen = route('get', '/v2/webhooks', ok(events, { pagination: pagination(2, 2, 5) }));
    const { data, response } = await client.webhooks
      .list({ page: 2, limit: 2, status: 'failed' })
      .withResponse();
    expect(only(seen, false)).toMatchObject({
      method: 'GET',
      path: '/v2/webhooks',
      query: { page: '2', limit: '2', status: 'failed' },
      body: undefined,
    });
    expect(data).toEqual({ data: events, pagination: { page: 2, limit: 2, total: 5, totalPages: 3 } });
    expect(response.status).toBe(200);
  });

  it('sends no query by default (the service uses page 1, 20 per page)', async () => {
    const seen = route('get', '/v2/webhooks', ok([], { pagination: pagination(1, 20, 0) }));
    const page = await client.webhooks.list();
    expect(seen[0]?.query).toEqual({});
    expect(page.data).toEqual([]);
  });

  it('reads a list without pagination', async () => {
    route('get', '/v2/webhooks', ok([webhookEvent('evt_1', 'delivered')]));
    expect(await client.webhooks.list()).toEqual({ data: [webhookEvent('evt_1', 'delivered')] });
  });

  it('errors pass through with their body', async () => {
    route('get', '/v2/webhooks', fail(401, { error: 'Unauthorized', message: 'Invalid or missing API key' }));
    await expect(client.webhooks.list()).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });

  it('keeps the rate-limit headers of the answer', async () => {
    route(
      'get',
      '/v2/webhooks',
      HttpResponse.json(
        { success: true, data: [], pagination: pagination(1, 20, 0) },
        {
          headers: {
            'X-RateLimit-Limit': '100',
            'X-RateLimit-Remaining': '99',
            'X-RateLimit-Reset': '1705314660',
          },
        },
      ),
    );
    const { response } = await client.webhooks.list().withResponse();
    expect(response.rateLimit).toEqual({ limit: 100, remaining: 99, reset: 1705314660 });
  });
});

describe('webhooks.listAutoPaging', () => {
  it('walks every page with for await, following pagination', async () => {
    const all = Array.from({ length: 5 }, (_, i) => webhookEvent(`evt_${i + 1}`));
    const seen = route('get', '/v2/webhooks', (request) => {
      const page = Number(request.query.page ?? 1);
      return ok(all.slice((page - 1) * 2, page * 2), { pagination: pagination(page, 2, all.length) });
    });
    const ids: string[] = [];
    for await (const event of client.webhooks.listAutoPaging({ limit: 2, status: 'failed' }))
      ids.push(event.id);
    expect(ids).toEqual(['evt_1', 'evt_2', 'evt_3', 'evt_4', 'evt_5']);
    // The first page is the service's default (1); the next ones are asked for by number.
    expect(seen.map((s) => s.query)).toEqual([
      { limit: '2', status: 'failed' },
      { page: '2', limit: '2', status: 'failed' },
      { page: '3', limit: '2', status: 'failed' },
    ]);
  });

  it('stops at a short page when there is no pagination', async () => {
    const seen = route(
      'get',
      '/v2/webhooks',
      ok([webhookEvent('a'), webhookEvent('b')]),
      ok([webhookEvent('c')]),
    );
    const events: WebhookEvent[] = [];
    for await (const event of client.webhooks.listAutoPaging({ limit: 2 })) events.push(event);
    expect(events.map((e) => e.id)).toEqual(['a', 'b', 'c']);
    expect(seen).toHaveLength(2);
  });

  it('stops early when the caller breaks', async () => {
    const seen = route(
      'get',
      '/v2/webhooks',
      ok([webhookEvent('a'), webhookEvent('b')], { pagination: pagination(1, 2, 10) }),
    );
    for await (const event of client.webhooks.listAutoPaging({ limit: 2 })) {
      if (event.id === 'a') break;
    }
    expect(seen).toHaveLength(1);
  });

  it('makes one request for an empty list', async () => {
    const seen = route('get', '/v2/webhooks', ok([], { pagination: pagination(1, 20, 0) }));
    for await (const _ of client.webhooks.listAutoPaging()) throw new Error('no events expected');
    expect(seen).toHaveLength(1);
  });
});

describe('webhooks.retry', () => {
  it('POSTs with no body and reads the event record with status pending', async () => {
    const record = { ...webhookEvent('evt_1', 'pending'), attempts: 5 };
    const seen = route('post', '/v2/webhooks/:id/retry', ok(record, { message: 'Retry scheduled' }));
    const { data, message } = await client.webhooks.retry('evt_1').withResponse();
    expect(only(seen, true)).toMatchObject({
      method: 'POST',
      path: '/v2/webhooks/evt_1/retry',
      body: undefined,
    });
    expect(data).toEqual(record);
    expect(message).toBe('Retry scheduled');
  });

  it('reads EVENT_NOT_FOUND as a NotFoundError', async () => {
    route(
      'post',
      '/v2/webhooks/:id/retry',
      fail(404, { error: 'Not Found', message: 'No such event', code: 'EVENT_NOT_FOUND' }),
    );
    await expect(client.webhooks.retry('evt_x')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('client.webhooks.unwrap, through the shared msw server', () => {
  // The conventions partner engineers bring from stripe-node and openai-node (docs/coming-from-stripe-or-openai.md).

  const secret = 'whsec_peer';
  const payload = {
    id: 'evt_1',
    event: 'user.created',
    timestamp: '2025-01-01T00:00:00.000Z',
    partnerId: 'p_1',
    data: { userId: 'usr_1', createdAt: '2025-01-01T00:00:00.000Z' },
  } as const;

  describe('client.webhooks.unwrap', () => {
    it('verifies with the webhookSecret option, from fetch Headers or node headers', async () => {
      const { body, signature } = signWebhook({ payload, secret });
      const client = makeClient({ webhookSecret: secret });
      expect((await client.webhooks.unwrap(body, new Headers({ 'X-Service-Signature': signature }))).id).toBe(
        'evt_1',
      );
      expect(
        (await client.webhooks.unwrap(Buffer.from(body), { 'x-service-signature': signature })).event,
      ).toBe('user.created');
    });

    it('falls back to INR_PAYOUTS_WEBHOOK_SECRET, and a per-call secret wins', async () => {
      const { body, signature } = signWebhook({ payload, secret });
      vi.stubEnv('INR_PAYOUTS_WEBHOOK_SECRET', secret);
      try {
        expect((await makeClient().webhooks.unwrap(body, { 'x-service-signature': signature })).id).toBe(
          'evt_1',
        );
      } finally {
        vi.unstubAllEnvs();
      }
      const other = makeClient({ webhookSecret: 'whsec_other' });
      await expect(other.webhooks.unwrap(body, { 'x-service-signature': signature })).rejects.toMatchObject({
        reason: 'no_matching_signature',
      });
      expect((await other.webhooks.unwrap(body, { 'x-service-signature': signature }, { secret })).id).toBe(
        'evt_1',
      );
    });

    it('rejects a tampered body or a missing secret with a WebhookVerificationError, a PayoutError', async () => {
      const { body, signature } = signWebhook({ payload, secret });
      const error = await makeClient({ webhookSecret: secret })
        .webhooks.unwrap(body.replace('usr_1', 'usr_2'), { 'x-service-signature': signature })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WebhookVerificationError);
      expect(error).toBeInstanceOf(PayoutError);
      const missing = await makeClient()
        .webhooks.unwrap(body, { 'x-service-signature': signature })
        .catch((e: unknown) => e);
      expect(missing).toMatchObject({ reason: 'missing_secret' });
    });
  });
});

// client.webhooks.recover against the mock: what it lists, what it retries, and that a repeat is harmless.

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
