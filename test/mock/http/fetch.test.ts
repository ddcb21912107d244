/**
 * `mock.fetch`: the whole simulation as a WHATWG fetch, in-process, with no msw. The client takes it, webhook
 * deliveries from such a mock reach an in-process receiver (`Request => Response`) or a real one, and it
 * behaves as fetch does at the edges: a dropped connection and an abort reject, a URL it does not serve never
 * reaches the network. No msw server runs in this file, so nothing here is intercepted.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createMockService, type MockService } from '../../../mock/index.js';
import { APIUserAbortError, NotFoundError, PayoutClient } from '../../../src/index.js';
import { verifyWebhook } from '../../../src/webhooks/index.js';

const KEYS = ['5b0c6f1e-9f0a-4f57-8d2c-4f7f4a1b2c3d', '7d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6'];

/** `mock.fetch` with each request it is given kept (a copy, so the mock still reads the body); `onCall` runs once it is handed over. */
function recorded(mock: MockService, onCall = () => {}): { fetch: typeof fetch; requests: Request[] } {
  const requests: Request[] = [];
  const fetch: typeof globalThis.fetch = (input, init) => {
    const request = new Request(input, init);
    requests.push(request.clone());
    const answer = mock.fetch(request);
    onCall();
    return answer;
  };
  return { fetch, requests };
}

/** A flow with a body, a query, an error and an idempotent replay; what the mock kept of it. */
async function flow(fetch: (mock: MockService) => typeof globalThis.fetch) {
  const mock = createMockService({ seed: 'fetch-requests' });
  const client = mock.createClient({ fetch: fetch(mock) });
  const data: unknown[] = [];
  const [first = '', second = ''] = KEYS;
  data.push(await client.users.create({ mobile: '9876543210' }, { idempotencyKey: first }));
  const replay = await client.users
    .create({ mobile: '9876543210' }, { idempotencyKey: first })
    .withResponse();
  data.push({
    data: replay.data,
    status: replay.response.status,
    replayed: replay.response.idempotentReplayed,
  });
  data.push(await client.account.retrieve());
  data.push(await client.account.listActivity({ limit: 2 }));
  const missing = await client.transactions.retrieve('txn_missing').catch((error: unknown) => error);
  data.push(missing instanceof Error ? { error: missing.name, message: missing.message } : missing);
  data.push(await client.users.create({ mobile: '9876543211' }, { idempotencyKey: second }));
  return { data, bundle: mock.bundle(), journal: mock.journal.entries() };
}

describe("the client's requests to mock.fetch, a fetch like any other", () => {
  it('are answered, recorded and journalled exactly as through a wrapper of mock.fetch that makes its own Request', async () => {
    const direct = await flow((mock) => mock.fetch);
    const wrapped = await flow((mock) => (input, init) => mock.fetch(new Request(input, init)));
    expect(direct).toEqual(wrapped);
    expect(direct.data[4]).toMatchObject({ error: NotFoundError.name });
    expect(direct.bundle.steps).toHaveLength(6);
  });

  it('carry the real key, the body as sent and the absolute URL', async () => {
    const mock = createMockService({ seed: 'fetch-requests' });
    const { fetch, requests } = recorded(mock);
    const client = mock.createClient({ fetch });
    await client.users.create({ mobile: '9876543210' }, { idempotencyKey: KEYS[0] });
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe(`${mock.baseUrl}/v2/users`);
    expect(request?.headers.get('authorization')).toBe(`Bearer ${mock.sandboxKey}`);
    expect(request?.headers.get('content-type')).toBe('application/json');
    expect(request?.headers.get('idempotency-key')).toBe(KEYS[0]);
    expect(await request?.text()).toBe(JSON.stringify({ mobile: '9876543210' }));
  });

  it('are aborted by the caller while the mock answers', async () => {
    const mock = createMockService({ seed: 'fetch-requests' });
    const controller = new AbortController();
    const { fetch, requests } = recorded(mock, () => controller.abort(new Error('stop')));
    const client = mock.createClient({ fetch, maxRetries: 0 });
    await expect(client.account.retrieve({ signal: controller.signal })).rejects.toBeInstanceOf(
      APIUserAbortError,
    );
    expect(requests).toHaveLength(1);
    expect(requests[0]?.signal.aborted).toBe(true);
  });

  it('are answered when the client has fetch options of its own', async () => {
    const mock = createMockService({ seed: 'fetch-requests' });
    const { fetch, requests } = recorded(mock);
    const client = mock.createClient({ fetch, fetchOptions: { cache: 'no-store' } });
    await expect(client.account.retrieve()).resolves.toMatchObject({ id: mock.accountId });
    expect(requests.map((request) => request.cache)).toEqual(['no-store']);
  });
});

describe('mock.fetch, the in-process mock without msw', () => {
  it('answers a request as the service would, and any client that takes a fetch completes a flow on it', async () => {
    const mock = createMockService();
    const direct = await mock.fetch(`${mock.baseUrl}/v2/account`, {
      headers: { Authorization: `Bearer ${mock.sandboxKey}` },
    });
    expect(direct.status).toBe(200);
    expect(await direct.json()).toMatchObject({ success: true, data: { id: mock.accountId } });

    const client = new PayoutClient({
      apiKey: mock.sandboxKey,
      baseUrl: mock.baseUrl,
      fetch: mock.fetch,
      clock: mock.clientClock,
    });
    const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210', name: 'Asha Rao' });
    const created = await client.transactions.create({
      userId,
      amount: '100.00',
      asset: 'USDC',
      network: 'polygon',
      partnerReference: 'fetch-flow',
    });
    mock.helpers.transactions.simulateDeposit({ transactionId: created.transactionId });
    await client.transactions.waitForStatus(created.transactionId);
    const paid = await client.transactions.waitForAttribution(created.transactionId);
    expect(paid.transaction.status).toBe('completed');
    expect(paid.payout.utr).toMatch(/^SBX\d{12}$/);
  });

  it('takes a Request with its body as fetch does: served once, its body used after', async () => {
    const mock = createMockService();
    const request = new Request(`${mock.baseUrl}/v2/users`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${mock.sandboxKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ mobile: '9876543210' }),
    });
    const created = await mock.fetch(request, {});
    expect(created.status).toBe(201);
    expect(request.bodyUsed).toBe(true);
    expect(mock.journal.entries({ type: 'request' })).toHaveLength(1);
  });

  it('rejects a URL outside its base URL with a TypeError, as fetch does for a network failure', async () => {
    const mock = createMockService();
    await expect(mock.fetch('https://api.example.com/v2/account')).rejects.toThrow(TypeError);
    await expect(mock.fetch('https://api.example.com/v2/account')).rejects.toThrow(/not served by this mock/);
    // As fetch: a request that cannot be made rejects, it does not throw.
    await expect(mock.fetch('not a url')).rejects.toThrow(TypeError);
  });

  it('a drop fault rejects as a lost connection, and the client retries it with the same idempotency key', async () => {
    const mock = createMockService();
    mock.helpers.faults.inject({ match: { path: '/v2/users' }, kind: 'drop-after-commit' });
    const post = () =>
      mock.fetch(`${mock.baseUrl}/v2/users`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${mock.sandboxKey}`, 'Idempotency-Key': 'k-1' },
        body: JSON.stringify({ mobile: '9876543210' }),
      });
    await expect(post()).rejects.toThrow(/fetch failed/);
    const retry = await post();
    expect(retry.status).toBe(200);
    expect(retry.headers.get('Idempotent-Replayed')).toBe('true');
  });

  it("honours the request's abort signal", async () => {
    const mock = createMockService();
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(mock.fetch(`${mock.baseUrl}/v2/account`, { signal: controller.signal })).rejects.toThrow(
      'stop',
    );
  });

  it('rejects with the reason when aborted while the answer is still pending, or before it comes', async () => {
    const mock = createMockService();
    // An answer that never comes: only the abort can end the call.
    mock.override('account.retrieve', () => new Promise<never>(() => undefined));
    const headers = { Authorization: `Bearer ${mock.sandboxKey}` };
    const later = new AbortController();
    const pending = mock.fetch(`${mock.baseUrl}/v2/account`, { headers, signal: later.signal });
    setTimeout(() => later.abort(new Error('stopped later')), 5);
    await expect(pending).rejects.toThrow('stopped later');
    mock.clearOverrides();
    // Aborted in the same turn as the call, before the answer that comes at once.
    const now = new AbortController();
    const answered = mock.fetch(`${mock.baseUrl}/v2/account`, { headers, signal: now.signal });
    now.abort(new Error('stopped at once'));
    await expect(answered).rejects.toThrow('stopped at once');
  });

  it('delivers webhooks to an in-process receiver written as a fetch handler, with no port', async () => {
    const mock = createMockService({ account: { webhookUrl: 'https://partner.test/hooks' } });
    const received: string[] = [];
    // What a Hono app's `app.fetch` or a route handler is: Request in, Response out.
    const receiver = async (request: Request): Promise<Response> => {
      const body = await request.text();
      const event = verifyWebhook(
        body,
        request.headers.get('x-service-signature') ?? undefined,
        mock.webhookSecret,
      );
      received.push(`${request.url} ${event.event}`);
      return new Response(null, { status: 200 });
    };
    mock.helpers.webhooks.useFetch((url, init) => receiver(new Request(url, init)));
    await mock.createClient().users.create({ mobile: '9876543210' });
    await mock.clock.advance('1s');
    expect(received).toEqual(['https://partner.test/hooks user.created']);
    expect(mock.helpers.webhooks.events()[0]?.status).toBe('delivered');
  });

  it('delivers webhooks to a real receiver on a port', async () => {
    const bodies: string[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        bodies.push(body);
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const mock = createMockService({ account: { webhookUrl: `http://127.0.0.1:${port}/hooks` } });
      await mock.createClient().users.create({ mobile: '9876543210' });
      await mock.clock.advance('1s');
      await mock.helpers.webhooks.settle();
      expect(bodies.map((b) => JSON.parse(b).event)).toEqual(['user.created']);
      expect(mock.helpers.webhooks.events()[0]?.status).toBe('delivered');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('the former mock.handlers says where the msw handlers are now', () => {
    const mock = createMockService();
    expect(Object.keys(mock)).not.toContain('handlers');
    expect(() => Reflect.get(mock, 'handlers')).toThrow(
      /moved to the entry 'inr-payouts\/mock\/msw'.*setupServer\(\.\.\.mswHandlers\(mock\)\)/,
    );
  });
});
