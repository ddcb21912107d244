import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockService } from '../../../mock/index.js';
import { mswHandlers } from '../../../mock/msw/index.js';
import { startMockServer } from '../../../mock/server/server.js';
import { WebhookEventListBody } from '../../../src/schemas/webhooks.js';
import { verifyWebhook } from '../../../src/webhooks/index.js';
import { moneyMock } from '../../support/money-mock.js';
import { createUser, type RunningServer, startServer } from '../server/support.js';

/**
 * Deliveries as a real receiver sees them (spec 6.3, 6.4): verified with the receiver's own clock however far
 * the virtual clock has moved, through a partner's MSW server that errors on unhandled requests, and with a
 * redirect counted as a failed attempt. In-process and on the standalone server.
 */

interface Hit {
  method: string;
  path: string;
  eventId: string;
  accept: string | undefined;
  /** What `verifyWebhook` with default options (the receiver's wall clock) made of it. */
  verdict: string;
}

/** A `node:http` receiver verifying with its own clock; answers `status` (and `location` for a 3xx). */
async function startReceiver(secret: () => string, status = 200) {
  const hits: Hit[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verdict = 'accepted';
      try {
        verifyWebhook(body, req.headers['x-service-signature'], secret());
      } catch (error) {
        verdict = error instanceof Error ? error.message : String(error);
      }
      hits.push({
        method: req.method ?? '',
        path: req.url ?? '',
        eventId: String(req.headers['x-service-event-id']),
        accept: req.headers.accept,
        verdict,
      });
      const headers = status >= 300 && status < 400 ? { location: '/elsewhere' } : {};
      res.writeHead(status, headers).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return { url, hits, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const user = (mobile: string) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ mobile }),
});

describe('in-process, behind a partner MSW server with onUnhandledRequest: error', () => {
  const msw = setupServer();
  const unhandled: string[] = [];
  beforeAll(() =>
    msw.listen({
      onUnhandledRequest: (request) => {
        unhandled.push(`${request.method} ${request.url}`);
        throw new Error(`unhandled ${request.method} ${request.url}`);
      },
    }),
  );
  afterAll(() => msw.close());
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    msw.resetHandlers();
    await close?.();
    close = undefined;
  });

  it('6.3: after the clock moved by days, a receiver verifying with its own clock accepts every delivery', async () => {
    const mock = createMockService();
    msw.use(...mswHandlers(mock));
    const rx = await startReceiver(() => mock.webhookSecret);
    close = rx.close;
    mock.helpers.accounts.update({ webhookUrl: rx.url });
    const headers = { Authorization: `Bearer ${mock.sandboxKey}` };
    const first = user('9876543210');
    await fetch(`${mock.baseUrl}/v2/users`, { ...first, headers: { ...first.headers, ...headers } });
    await mock.clock.advance('3d');
    const second = user('9876543211');
    await fetch(`${mock.baseUrl}/v2/users`, { ...second, headers: { ...second.headers, ...headers } });
    await mock.clock.advance('1s');

    const events = mock.helpers.webhooks.events({ type: 'user.created' });
    expect(events.map((e) => e.status)).toEqual(['delivered', 'delivered']);
    expect(rx.hits.map((h) => [h.method, h.eventId, h.verdict])).toEqual(
      events.map((e) => ['POST', e.id, 'accepted']),
    );
    // What the test asserts stays on the virtual clock: the envelope and the recorded attempt.
    expect(events.map((e) => e.envelope.timestamp)).toEqual([
      '2025-01-01T00:00:00.000Z',
      '2025-01-04T00:00:00.000Z',
    ]);
    expect(mock.helpers.webhooks.captured().map((d) => d.at)).toEqual([
      '2025-01-01T00:00:00.000Z',
      '2025-01-04T00:00:00.000Z',
    ]);
    // msw strips its bypass marker before the request leaves; nothing reached onUnhandledRequest.
    expect(rx.hits.map((h) => h.accept?.includes('msw/passthrough'))).toEqual([false, false]);
    expect(unhandled).toEqual([]);
  });

  it('6.4: a receiver answering 302 gets the full retry schedule and the redirect is never followed', async () => {
    const mock = createMockService();
    msw.use(...mswHandlers(mock));
    const rx = await startReceiver(() => mock.webhookSecret, 302);
    close = rx.close;
    mock.helpers.accounts.update({ webhookUrl: rx.url });
    const t0 = mock.clock.now();
    const request = user('9876543210');
    await fetch(`${mock.baseUrl}/v2/users`, {
      ...request,
      headers: { ...request.headers, Authorization: `Bearer ${mock.sandboxKey}` },
    });
    await mock.clock.advance('1m');

    expect(rx.hits.map((h) => [h.method, h.path, h.verdict])).toEqual(
      Array.from({ length: 5 }, () => ['POST', '/hooks', 'accepted']),
    );
    const captured = mock.helpers.webhooks.captured();
    expect(captured.map((d) => [Date.parse(d.at) - t0, d.status, d.ok])).toEqual([
      [0, 302, false],
      [1_000, 302, false],
      [3_000, 302, false],
      [7_000, 302, false],
      [15_000, 302, false],
    ]);
    expect(mock.helpers.webhooks.events()[0]).toMatchObject({ status: 'failed', attempts: 5 });
  });
});

describe('the standalone server', () => {
  it('6.3: after the clock moved by days, a receiver verifying with its own clock accepts every delivery', async () => {
    const running = await startMockServer({ port: 0, service: { startTime: '2025-01-01T00:00:00Z' } });
    const rx = await startReceiver(() => running.service.webhookSecret);
    try {
      running.service.helpers.accounts.update({ webhookUrl: rx.url });
      const headers = { Authorization: `Bearer ${running.service.sandboxKey}` };
      for (const [i, mobile] of ['9876543210', '9876543211', '9876543212'].entries()) {
        const request = user(mobile);
        const answer = await fetch(`${running.url}/v2/users`, {
          ...request,
          headers: { ...request.headers, ...headers },
        });
        expect(answer.status).toBe(201);
        await running.service.clock.advance(i === 0 ? '50h' : '7d');
      }
      // The server's clock does not wait for receivers (webhookWaitMs 0): wait for the answers here.
      await running.service.helpers.webhooks.settle();
      const events = running.service.helpers.webhooks.events({ type: 'user.created' });
      expect(events.map((e) => e.status)).toEqual(['delivered', 'delivered', 'delivered']);
      expect(rx.hits.map((h) => [h.eventId, h.verdict])).toEqual(events.map((e) => [e.id, 'accepted']));
    } finally {
      await rx.close();
      await running.close();
    }
  });

  it('14.6: clock/advance answers while a silent receiver holds its delivery, and every other timer runs', async () => {
    const held: Array<() => void> = [];
    const silent = createServer((_req, res) => {
      held.push(() => res.writeHead(200).end());
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const running = await startMockServer({ port: 0 });
    try {
      const { service } = running;
      const userId = service.helpers.users.seedVerified({ mobile: '9876543210', name: 'Asha Rao' }).userId;
      service.helpers.accounts.update({
        webhookUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/hooks`,
      });
      const created = await fetch(`${running.url}/v2/transactions`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${service.sandboxKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ userId, amount: '100', asset: 'USDT', network: 'arbitrum' }),
      });
      const { data } = (await created.json()) as { data: { transactionId: string } };
      await service.clock.runDue();
      for (let i = 0; i < 100 && held.length === 0; i += 1) await new Promise((r) => setTimeout(r, 10));
      expect(held).toHaveLength(1);

      const advanced = await fetch(`${running.url}/__mock/clock/advance`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify('6h'),
      });
      expect(advanced.status).toBe(200);
      // Answered while the receiver still holds the first POST: the event waits, the clock does not.
      expect(held).toHaveLength(1);
      const event = service.helpers.webhooks.events({ type: 'transaction.created' })[0];
      expect(event).toMatchObject({ status: 'pending', attempts: 0 });
      const read = await fetch(`${running.url}/v2/transactions/${data.transactionId}`, {
        headers: { Authorization: `Bearer ${service.sandboxKey}` },
      });
      const body = (await read.json()) as { data: { transaction: { status: string } } };
      expect(body.data.transaction.status).toBe('cancelled');

      for (const answer of held) answer();
      await service.helpers.webhooks.settle();
      expect(service.helpers.webhooks.events({ type: 'transaction.created' })[0]).toMatchObject({
        status: 'delivered',
        attempts: 1,
        deliveredAt: event?.createdAt,
      });
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
      await running.close();
    }
  });
});

describe('2.11, 4.12: the webhook event list', () => {
  const mock = moneyMock();

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

describe('webhooks from the standalone server to a real receiver', () => {
  /**
   * `--webhook-url`: events leave the server as real signed HTTP POSTs to a local receiver, retried on the
   * spec's schedule (6.4) on the server's clock.
   */

  interface Received {
    body: string;
    signature: string;
    eventId: string;
  }

  let receiver: Server;
  let receiverUrl: string;
  const received: Received[] = [];
  /** Statuses the receiver answers, in order; 200 once they run out. */
  const answers: number[] = [];

  async function text(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  beforeAll(async () => {
    receiver = createServer(async (req, res) => {
      received.push({
        body: await text(req),
        signature: String(req.headers['x-service-signature']),
        eventId: String(req.headers['x-service-event-id']),
      });
      res.writeHead(answers.shift() ?? 200).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  async function waitFor(count: number): Promise<void> {
    for (let i = 0; i < 200 && received.length < count; i += 1) await new Promise((r) => setTimeout(r, 25));
    expect(received).toHaveLength(count);
  }

  describe('webhooks to a real receiver', () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startServer(['--webhook-url', receiverUrl]);
    });
    afterAll(async () => {
      await server.stop();
    });

    it('6.3, 6.4: user.created arrives signed with the printed secret, and a 500 is retried 1 s later', async () => {
      answers.push(500);
      const userId = await createUser(server);
      await waitFor(1);
      await server.helper('clock/advance', '999ms');
      expect(received).toHaveLength(1);
      await server.helper('clock/advance', '1ms');
      await waitFor(2);
      const [first, second] = received;
      expect(second?.eventId).toBe(first?.eventId);
      expect(second?.body).toBe(first?.body);
      const event = verifyWebhook(second?.body ?? '', second?.signature ?? '', server.secret);
      expect(event).toMatchObject({ event: 'user.created', data: { userId } });
      expect(event.id).toBe(second?.eventId);
    });

    it('POST /__mock/webhooks/settle answers once the manual retry it sent is recorded, with no clock moved', async () => {
      const before = received.length;
      const userId = await createUser(server, '9876543299');
      await server.helper('webhooks/settle');
      expect(received.at(-1)?.body).toContain(userId);
      const list = await server.call('GET', '/v2/webhooks?limit=50');
      const events = list.body.data as Array<{ id: string; attempts: number }>;
      const created = events.find((e) => e.id === received.at(-1)?.eventId);
      expect(created?.attempts).toBe(1);
      const now = (await server.helper('clock/now')).body.data;
      expect((await server.call('POST', `/v2/webhooks/${created?.id}/retry`)).status).toBe(200);
      await server.helper('webhooks/settle');
      expect(received.length).toBe(before + 2);
      const after = await server.call('GET', '/v2/webhooks?limit=50');
      const again = (after.body.data as typeof events).find((e) => e.id === created?.id);
      expect(again?.attempts).toBe(2);
      expect((await server.helper('clock/now')).body.data).toEqual(now);
    });
  });
});
