import ky from 'ky';
import { describe, expect, it } from 'vitest';
import { RateLimitError } from '../../src/index.js';
import { account } from '../support/fixtures.js';
import { fail, KEY, makeClient, ok, route, UUID, useServer } from '../support/msw.js';

useServer();

describe("the hooks option: ky's hooks run on every request, and none of them sees the key", () => {
  it('a beforeRequest header reaches the service; afterResponse sees each answer', async () => {
    const seen = route('get', '/v2/account', ok(account));
    const statuses: number[] = [];
    const client = makeClient({
      hooks: {
        beforeRequest: [(request) => void request.headers.set('X-Trace-Id', 'trace-1')],
        afterResponse: [(_request, _options, response) => void statuses.push(response.status)],
      },
    });
    await client.account.retrieve();
    expect(seen[0]?.headers.get('x-trace-id')).toBe('trace-1');
    expect(seen[0]?.headers.get('authorization')).toBe(`Bearer ${KEY}`);
    expect(statuses).toEqual([200]);
  });

  it('runs beforeRetry and beforeError with retries, and every request, option and error they get is masked', async () => {
    const seen = route(
      'get',
      '/v2/account',
      fail(429, { error: 'Too Many Requests', message: 'slow down', retryAfter: 0 }),
    );
    const logged: string[] = [];
    const log = (...values: unknown[]) => {
      for (const value of values) {
        const headers = value instanceof Request ? value.headers : (value as { headers?: Headers })?.headers;
        logged.push(JSON.stringify(value), ...(headers instanceof Headers ? [...headers.values()] : []));
      }
    };
    const retries: number[] = [];
    const client = makeClient({
      maxRetries: 1,
      hooks: {
        beforeRequest: [(request, options) => log(request, options)],
        beforeRetry: [
          ({ request, options, error, retryCount }) => {
            retries.push(retryCount);
            log(request, options, error, String(error));
          },
        ],
        afterResponse: [(request, options, response) => log(request, options, response)],
        beforeError: [
          (error) => {
            log(error, error.request, error.options, String(error));
            return error;
          },
        ],
      },
    });
    const error = await client.account.retrieve().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(seen).toHaveLength(2);
    expect(seen.every((s) => s.headers.get('authorization') === `Bearer ${KEY}`)).toBe(true);
    expect(retries).toEqual([1]);
    expect(logged.length).toBeGreaterThan(8);
    expect(logged).toContain('Bearer pk_sandbox_***');
    for (const line of logged) expect(line).not.toContain(KEY);
  });

  it('keeps the key out of a connection error a hook is given', async () => {
    const errors: string[] = [];
    const client = makeClient({
      maxRetries: 1,
      // The back-off between the attempts passes on this clock, not in real time.
      clock: { now: () => 0, sleep: async () => undefined },
      fetch: async () => {
        throw new TypeError(`could not send Authorization: Bearer ${KEY}`);
      },
      hooks: { beforeRetry: [({ error }) => void errors.push(error.message)] },
    });
    await client.account.retrieve().catch(() => undefined);
    expect(errors).toEqual(['could not send Authorization: Bearer pk_sandbox_***']);
  });

  it("waits on the client's clock before the partner's beforeRetry, even one that returns a new request", async () => {
    const seen = route(
      'get',
      '/v2/account',
      fail(429, { error: 'Too Many Requests', message: 'slow down', retryAfter: 30 }),
      ok(account),
    );
    let now = 0;
    const sleeps: number[] = [];
    const order: string[] = [];
    const client = makeClient({
      maxRetries: 1,
      clock: {
        now: () => now,
        sleep: async (ms) => {
          order.push('wait');
          sleeps.push(ms);
          now += ms;
        },
      },
      hooks: {
        beforeRetry: [
          ({ request }) => {
            order.push('beforeRetry');
            return new Request(request, {
              headers: { ...Object.fromEntries(request.headers), 'X-Retry': '1' },
            });
          },
        ],
      },
    });
    const { response } = await client.account.retrieve().withResponse();
    expect(response.attempts).toBe(2);
    expect(sleeps).toEqual([30_000]);
    expect(order).toEqual(['wait', 'beforeRetry']);
    expect(seen[1]?.headers.get('x-retry')).toBe('1');
    expect(seen[1]?.headers.get('authorization')).toBe(`Bearer ${KEY}`);
  });

  it("sends the body of the request a partner's beforeRetry returns, not the call's", async () => {
    const seen = route(
      'post',
      '/v2/account',
      fail(503, { error: 'Service Unavailable', message: 'try again' }),
      ok(account),
    );
    const client = makeClient({
      maxRetries: 1,
      clock: { now: () => 0, sleep: async () => {} },
      hooks: {
        beforeRetry: [
          ({ request }) =>
            new Request(request, { body: JSON.stringify({ webhookUrl: 'https://acme.test/retried' }) }),
        ],
      },
    });
    await client.request({
      method: 'POST',
      path: '/v2/account',
      body: { webhookUrl: 'https://acme.test/first' },
    });
    expect(seen.map((request) => request.raw)).toEqual([
      JSON.stringify({ webhookUrl: 'https://acme.test/first' }),
      JSON.stringify({ webhookUrl: 'https://acme.test/retried' }),
    ]);
  });

  it("retries a POST that timed out with a partner's beforeRetry hook, which sees the time-out masked", async () => {
    const bodies: string[] = [];
    let attempts = 0;
    // The first attempt reads the body and never answers; the retry is answered.
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const request = new Request(input, init);
      bodies.push(await request.text());
      attempts += 1;
      if (attempts === 1)
        return new Promise((_resolve, reject) =>
          request.signal.addEventListener('abort', () => reject(request.signal.reason)),
        );
      return Response.json({ success: true, data: account });
    };
    const errors: string[] = [];
    const client = makeClient({
      fetch,
      maxRetries: 1,
      timeout: 50,
      clock: { now: () => 0, sleep: async () => {} },
      hooks: {
        beforeRetry: [
          ({ request, error }) => void errors.push(`${error.name} ${request.headers.get('authorization')}`),
        ],
      },
    });
    await client.request({
      method: 'POST',
      path: '/v2/account',
      body: { webhookUrl: 'https://acme.test/wh' },
    });
    expect(bodies).toEqual([
      JSON.stringify({ webhookUrl: 'https://acme.test/wh' }),
      JSON.stringify({ webhookUrl: 'https://acme.test/wh' }),
    ]);
    expect(errors).toEqual([`TimeoutError Bearer pk_sandbox_***`]);
  });

  it("hands a partner's fetch ky's request with the real key, what hooks hold stays masked, and a fetch wrapper copying headers keeps the Idempotency-Key on a retry", async () => {
    const seen = route(
      'post',
      '/v2/users',
      fail(503, { error: 'Service Unavailable', message: 'try again' }),
    );
    const copied: Array<[string | null, string | null]> = [];
    const kyRequests: Request[] = [];
    const client = makeClient({
      maxRetries: 1,
      clock: { now: () => 0, sleep: async () => {} },
      hooks: { beforeRequest: [(request) => void kyRequests.push(request)] },
      // A partner's wrapper that copies each attempt's headers, as a tracing or signing wrapper does.
      fetch: (request, init) => {
        const headers = new Headers((request as Request).headers);
        copied.push([headers.get('authorization'), headers.get('idempotency-key')]);
        return fetch(request, init);
      },
    });
    await expect(client.users.create({ mobile: '9876543210' })).rejects.toMatchObject({ status: 503 });
    expect(seen).toHaveLength(2);
    const key = seen[0]?.headers.get('idempotency-key');
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(copied).toEqual([
      [`Bearer ${KEY}`, key],
      [`Bearer ${KEY}`, key],
    ]);
    expect(seen[1]?.headers.get('idempotency-key')).toBe(key);
    // What the hooks were given (views of ky's requests) keeps the key masked after the call.
    expect(kyRequests.map((r) => r.headers.get('authorization'))).toEqual([
      'Bearer pk_sandbox_***',
      'Bearer pk_sandbox_***',
    ]);
  });
  it("hands the global fetch ky's own request with the real key, body and Idempotency-Key on every attempt; what hooks hold stays masked", async () => {
    const seen = route(
      'post',
      '/v2/users',
      fail(503, { error: 'Service Unavailable', message: 'try again' }),
      ok({ userId: 'usr_1' }),
    );
    const kyRequests: Request[] = [];
    const client = makeClient({
      maxRetries: 1,
      clock: { now: () => 0, sleep: async () => {} },
      hooks: { afterResponse: [(request) => void kyRequests.push(request)] },
    });
    await client.request({ method: 'POST', path: '/v2/users', body: { mobile: '9876543210' } });
    expect(seen).toHaveLength(2);
    const key = seen[0]?.headers.get('idempotency-key');
    expect(key).toMatch(UUID);
    for (const attempt of seen) {
      expect(attempt.headers.get('authorization')).toBe(`Bearer ${KEY}`);
      expect(attempt.headers.get('idempotency-key')).toBe(key);
      expect(attempt.headers.get('content-type')).toBe('application/json');
      expect(attempt.body).toEqual({ mobile: '9876543210' });
    }
    expect(kyRequests.map((r) => r.headers.get('authorization'))).toEqual([
      'Bearer pk_sandbox_***',
      'Bearer pk_sandbox_***',
    ]);
  });

  it("keys again a request a partner's beforeRequest returns, and the hook never sees the key", async () => {
    const seen = route('get', '/v2/account', ok(account));
    const given: string[] = [];
    const returned: Request[] = [];
    const client = makeClient({
      hooks: {
        beforeRequest: [
          (request) => {
            given.push(request.headers.get('authorization') ?? '');
            const own = new Request(request.url, {
              headers: { ...Object.fromEntries(request.headers), 'X-Own': '1' },
            });
            returned.push(own);
            return own;
          },
        ],
      },
    });
    await client.account.retrieve();
    expect(given).toEqual(['Bearer pk_sandbox_***']);
    expect(seen[0]?.headers.get('x-own')).toBe('1');
    expect(seen[0]?.headers.get('authorization')).toBe(`Bearer ${KEY}`);
    // The partner's own request is not changed: the key goes on a copy.
    expect(returned[0]?.headers.get('authorization')).toBe('Bearer pk_sandbox_***');
  });

  it('keys the request of a retry an afterResponse hook asks for with ky.retry({ request })', async () => {
    const seen = route('get', '/v2/account', ok({ ...account, name: 'stale' }), ok(account));
    const client = makeClient({
      maxRetries: 1,
      clock: { now: () => 0, sleep: async () => {} },
      hooks: {
        afterResponse: [
          async (request, _options, response, { retryCount }) => {
            if (retryCount > 0 || !(await response.text()).includes('stale')) return;
            return ky.retry({ request: new Request(request, { headers: { 'X-Fresh': '1' } }) });
          },
        ],
      },
    });
    await client.account.retrieve();
    expect(seen).toHaveLength(2);
    expect(seen[1]?.headers.get('x-fresh')).toBe('1');
    expect(seen[1]?.headers.get('authorization')).toBe(`Bearer ${KEY}`);
  });

  it.each([
    ['no hook', {}],
    ['an afterResponse hook', { hooks: { afterResponse: [() => undefined] } }],
    ['a beforeRequest hook', { hooks: { beforeRequest: [() => undefined] } }],
  ])(
    'with %s, a wrapper on the global fetch reads the request as sent from new Request(input, init)',
    async (_with, options) => {
      const seen = route('post', '/v2/users', ok({ userId: 'usr_1' }));
      const wrapped = globalThis.fetch;
      const sent: Request[] = [];
      // What the changelog tells a tracing or logging wrapper to do: read a copy, send the request it made.
      globalThis.fetch = (input, init) => {
        const request = new Request(input, init);
        sent.push(request.clone());
        return wrapped(request);
      };
      try {
        await makeClient(options).request({
          method: 'POST',
          path: '/v2/users',
          body: { mobile: '9876543210' },
        });
      } finally {
        globalThis.fetch = wrapped;
      }
      const key = seen[0]?.headers.get('idempotency-key');
      expect(key).toMatch(UUID);
      expect(sent).toHaveLength(1);
      expect(sent[0]?.headers.get('authorization')).toBe(`Bearer ${KEY}`);
      expect(sent[0]?.headers.get('idempotency-key')).toBe(key);
      expect(await sent[0]?.text()).toBe(JSON.stringify({ mobile: '9876543210' }));
      expect(seen[0]?.headers.get('authorization')).toBe(`Bearer ${KEY}`);
    },
  );
});
