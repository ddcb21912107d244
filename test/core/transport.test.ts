import { inspect } from 'node:util';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { v4, validate } from 'uuid';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  RateLimitError,
  ResponseValidationError,
  UnprocessableEntityError,
  ValidationError,
} from '../../src/core/errors.js';
import { resolveClientOptions } from '../../src/core/options.js';
import { Transport } from '../../src/core/transport.js';
import { PayoutClient } from '../../src/index.js';
import { BASE as BASE_redact, requests, server as server_redact, useServer } from '../support/msw.js';

const BASE = 'https://api.transport.test';
const KEY = 'pk_sandbox_SECRETkey123456';
const server = setupServer();

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  vi.useRealTimers();
});
afterAll(() => server.close());

function transport(overrides: Parameters<typeof resolveClientOptions>[0] = {}) {
  return new Transport(resolveClientOptions({ apiKey: KEY, baseUrl: BASE, ...overrides }));
}

interface Seen {
  method: string;
  url: string;
  headers: Headers;
  body: string;
}

/** Answers each request with the next of `answers` (the last one repeats) and records what was sent. */
function script(method: 'get' | 'post', path: string, answers: Array<() => Response>) {
  const seen: Seen[] = [];
  server.use(
    http[method](`${BASE}${path}`, async ({ request }) => {
      seen.push({
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: await request.text(),
      });
      const answer = answers[Math.min(seen.length - 1, answers.length - 1)];
      if (!answer) throw new Error('no answer scripted');
      return answer();
    }),
  );
  return seen;
}

type Json = Parameters<typeof HttpResponse.json>[0];
const ok = (data: Json, init?: ResponseInit) => () => HttpResponse.json({ success: true, data }, init);
const fail = (status: number, body: Json, headers?: Record<string, string>) => () =>
  HttpResponse.json(body, { status, ...(headers ? { headers } : {}) });
const unavailable = fail(503, {
  error: 'Service Unavailable',
  message: 'try later',
  code: 'SERVICE_UNAVAILABLE',
});

describe('request basics (spec 4, 5)', () => {
  it('sends the bearer key, JSON body and query, and returns data with the raw answer', async () => {
    const seen = script('post', '/v2/things', [
      ok(
        { id: 't1' },
        {
          status: 201,
          headers: {
            'X-RateLimit-Limit': '60',
            'X-RateLimit-Remaining': '59',
            'X-RateLimit-Reset': '1767225660',
          },
        },
      ),
    ]);
    const result = await transport()
      .request({ method: 'POST', path: '/v2/things', query: { page: 2, skip: undefined }, body: { a: 1 } })
      .withResponse();
    expect(result.data).toEqual({ id: 't1' });
    expect(result.response.status).toBe(201);
    expect(result.response.rateLimit).toEqual({ limit: 60, remaining: 59, reset: 1767225660 });
    expect(result.response.attempts).toBe(1);
    const [sent] = seen;
    expect(sent?.url).toBe(`${BASE}/v2/things?page=2`);
    expect(sent?.headers.get('authorization')).toBe(`Bearer ${KEY}`);
    expect(sent?.headers.get('content-type')).toContain('application/json');
    expect(sent?.body).toBe('{"a":1}');
  });

  it('puts a UUID Idempotency-Key on mutating calls and none on reads', async () => {
    const posted = script('post', '/v2/things', [ok({})]);
    const read = script('get', '/v2/things', [ok({})]);
    const t = transport();
    const { response } = await t.request({ method: 'POST', path: '/v2/things', body: {} }).withResponse();
    await t.request({ method: 'GET', path: '/v2/things' });
    expect(posted[0]?.headers.get('idempotency-key')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(response.idempotencyKey).toBe(posted[0]?.headers.get('idempotency-key'));
    expect(read[0]?.headers.get('idempotency-key')).toBeNull();
  });

  it('never replaces a key the caller gave, as an option or as a header', async () => {
    const seen = script('post', '/v2/things', [ok({})]);
    const t = transport();
    await t.request(
      { method: 'POST', path: '/v2/things', body: {} },
      { idempotencyKey: '7d9f3c1a-2b4e-4c6d-8e0f-1a2b3c4d5e6f' },
    );
    await t.request(
      { method: 'POST', path: '/v2/things', body: {} },
      { headers: { 'idempotency-key': '0a1b2c3d-4e5f-4a6b-9c7d-8e9f0a1b2c3d' } },
    );
    expect(seen.map((s) => s.headers.get('idempotency-key'))).toEqual([
      '7d9f3c1a-2b4e-4c6d-8e0f-1a2b3c4d5e6f',
      '0a1b2c3d-4e5f-4a6b-9c7d-8e9f0a1b2c3d',
    ]);
  });

  it("keeps a Content-Type and an Idempotency-Key the client's defaultHeaders carry, in any case", async () => {
    const seen = script('post', '/v2/things', [ok({})]);
    const key = '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f';
    const { response } = await transport({
      defaultHeaders: { 'content-type': 'application/vnd.acme+json', 'IDEMPOTENCY-KEY': key },
    })
      .request({ method: 'POST', path: '/v2/things', body: {} })
      .withResponse();
    expect(seen[0]?.headers.get('content-type')).toBe('application/vnd.acme+json');
    expect(seen[0]?.headers.get('idempotency-key')).toBe(key);
    expect(response.idempotencyKey).toBe(key);
  });

  it("lets a call's header replace the client's of the same name in any case, sending one value", async () => {
    const seen = script('get', '/v2/things', [ok({})]);
    await transport({ defaultHeaders: { 'X-Team': 'payouts' } }).request(
      { method: 'GET', path: '/v2/things' },
      { headers: { 'x-team': 'risk', ACCEPT: 'application/vnd.acme+json' } },
    );
    expect(seen[0]?.headers.get('x-team')).toBe('risk');
    expect(seen[0]?.headers.get('accept')).toBe('application/vnd.acme+json');
  });
  it.each([
    ['an option', { idempotencyKey: 'order-42' }],
    ['a header', { headers: { 'Idempotency-Key': 'order-42' } }],
  ])('refuses a caller key that is not a UUID, given as %s, before sending', async (_how, options) => {
    const seen = script('post', '/v2/things', [ok({})]);
    const error = await transport()
      .request({ method: 'POST', path: '/v2/things', body: {} }, options)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      { path: 'idempotencyKey', message: expect.stringMatching(/must be a UUID \(spec section 8\)/) },
    ]);
    expect(seen).toHaveLength(0);
  });

  it('shows an Idempotent-Replayed answer to the caller', async () => {
    script('post', '/v2/things', [
      ok({ id: 't1' }, { status: 200, headers: { 'Idempotent-Replayed': 'true' } }),
    ]);
    const { response } = await transport()
      .request({ method: 'POST', path: '/v2/things', body: {} })
      .withResponse();
    expect(response.idempotentReplayed).toBe(true);
  });

  it('returns the body message next to the data', async () => {
    script('post', '/v2/things', [
      () => HttpResponse.json({ success: true, message: 'Fee set to 1%', data: {} }),
    ]);
    const result = await transport().request({ method: 'POST', path: '/v2/things', body: {} }).withResponse();
    expect(result.message).toBe('Fee set to 1%');
  });
});

describe('retries (spec 7.2, 7.6, 8)', () => {
  it('waits the retryAfter a 429 gives, then resends the POST with the same Idempotency-Key', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const seen = script('post', '/v2/transactions', [
      fail(429, { error: 'Rate Limit Exceeded', message: 'slow down', retryAfter: 2 }),
      ok({ id: 'txn_1' }, { status: 201 }),
    ]);
    const pending = transport()
      .request({ method: 'POST', path: '/v2/transactions', body: { amount: '10' } })
      .withResponse();
    await vi.advanceTimersByTimeAsync(1_999);
    expect(seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    const result = await pending;
    expect(seen).toHaveLength(2);
    expect(seen[1]?.headers.get('idempotency-key')).toBe(seen[0]?.headers.get('idempotency-key'));
    expect(seen[1]?.body).toBe(seen[0]?.body);
    expect(result.data).toEqual({ id: 'txn_1' });
    expect(result.response.attempts).toBe(2);
  });

  it('falls back to X-RateLimit-Reset when the 429 body has no retryAfter', async () => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'Date'],
      now: new Date('2026-01-01T00:00:00Z'),
    });
    const reset = String(Date.parse('2026-01-01T00:00:03Z') / 1000);
    const seen = script('get', '/v2/account', [
      fail(429, { error: 'Rate Limit Exceeded', message: 'slow down' }, { 'X-RateLimit-Reset': reset }),
      ok({}),
    ]);
    const pending = transport().request({ method: 'GET', path: '/v2/account' });
    await vi.advanceTimersByTimeAsync(2_999);
    expect(seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    expect(seen).toHaveLength(2);
  });

  it('does not retry a POST whose idempotency key was turned off', async () => {
    const seen = script('post', '/v2/transactions', [unavailable]);
    const call = transport().request(
      { method: 'POST', path: '/v2/transactions', body: {} },
      { idempotencyKey: false },
    );
    await expect(call).rejects.toBeInstanceOf(InternalServerError);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.headers.get('idempotency-key')).toBeNull();
  });

  it('retries a GET through three 503s and succeeds', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const seen = script('get', '/v2/account', [unavailable, unavailable, unavailable, ok({ id: 'acc' })]);
    const pending = transport({ maxRetries: 3 }).request({ method: 'GET', path: '/v2/account' });
    await vi.runAllTimersAsync();
    await expect(pending).resolves.toEqual({ id: 'acc' });
    expect(seen).toHaveLength(4);
  });

  it('fails after the configured retries with the status and code', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const seen = script('get', '/v2/account', [unavailable]);
    const pending = transport({ maxRetries: 2 }).request({ method: 'GET', path: '/v2/account' });
    const settled = pending.then(
      () => undefined,
      (e: unknown) => e,
    );
    await vi.runAllTimersAsync();
    const error = await settled;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(seen).toHaveLength(3);
  });

  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [409, ConflictError],
    [422, UnprocessableEntityError],
  ])('never retries %i', async (status, Class) => {
    const seen = script('post', '/v2/transactions', [
      fail(status, { error: 'No', message: 'refused', code: 'REFUSED' }),
    ]);
    await expect(
      transport().request({ method: 'POST', path: '/v2/transactions', body: {} }),
    ).rejects.toBeInstanceOf(Class);
    expect(seen).toHaveLength(1);
  });

  it('retries a connection failure of a keyed POST with the same key', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const seen = script('post', '/v2/transactions', [() => HttpResponse.error(), ok({ id: 'txn_1' })]);
    const pending = transport().request({ method: 'POST', path: '/v2/transactions', body: {} });
    await vi.runAllTimersAsync();
    await expect(pending).resolves.toEqual({ id: 'txn_1' });
    expect(seen[1]?.headers.get('idempotency-key')).toBe(seen[0]?.headers.get('idempotency-key'));
  });

  it('rejects at once when aborted during a retry wait', async () => {
    const seen = script('get', '/v2/account', [
      fail(429, { error: 'Rate Limit Exceeded', message: 'wait', retryAfter: 30 }),
    ]);
    const controller = new AbortController();
    const pending = transport().request(
      { method: 'GET', path: '/v2/account' },
      { signal: controller.signal },
    );
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    const started = Date.now();
    controller.abort(new Error('user left'));
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(seen).toHaveLength(1);
  });

  it('surfaces the final 429 with retryAfter and the rate-limit headers once retries run out', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const headers = {
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': '1767225660',
    };
    const seen = script('get', '/v2/account', [
      fail(429, { error: 'Rate Limit Exceeded', message: 'slow', retryAfter: 1 }, headers),
    ]);
    const settled = transport({ maxRetries: 2 })
      .request({ method: 'GET', path: '/v2/account' })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    await vi.runAllTimersAsync();
    const error = await settled;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMIT_EXCEEDED', retryAfter: 1 });
    expect((error as RateLimitError).rateLimit).toEqual({ limit: 60, remaining: 0, reset: 1767225660 });
    expect((error as RateLimitError).headers.get('x-ratelimit-remaining')).toBe('0');
    expect(seen).toHaveLength(3);
  });

  it('gives up on a 429 that asks for a longer wait than maxRetryAfter', async () => {
    const seen = script('get', '/v2/account', [
      fail(429, { error: 'Rate Limit Exceeded', message: 'slow', retryAfter: 3600 }),
    ]);
    await expect(
      transport({ maxRetryAfter: 10_000 }).request({ method: 'GET', path: '/v2/account' }),
    ).rejects.toMatchObject({
      retryAfter: 3600,
    });
    expect(seen).toHaveLength(1);
  });
});

describe('timeouts and deadline', () => {
  it('abandons a slow attempt, retries, and reports a timeout', async () => {
    const seen = script('get', '/v2/slow', [
      () =>
        new Promise<Response>((resolve) =>
          setTimeout(() => resolve(HttpResponse.json({ success: true, data: {} })), 2_000),
        ) as never,
    ]);
    const error = await transport({ timeout: 50, maxRetries: 1 })
      .request({ method: 'GET', path: '/v2/slow' })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(seen).toHaveLength(2);
  });

  it('stops at the overall deadline', async () => {
    script('get', '/v2/slow', [
      () =>
        new Promise<Response>((resolve) =>
          setTimeout(() => resolve(HttpResponse.json({ success: true, data: {} })), 2_000),
        ) as never,
    ]);
    const error = await transport({ timeout: 10_000, deadline: 80 })
      .request({ method: 'GET', path: '/v2/slow' })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(APITimeoutError);
    expect((error as Error).message).toContain('deadline');
  });
});

describe('errors (spec 7.1)', () => {
  const shapeA = { error: 'Unprocessable', message: 'Names differ', code: 'NAME_MISMATCH', matchScore: 42 };
  const shapeB = {
    success: false,
    error: 'Name Mismatch',
    message: 'Names differ',
    data: { expected: 'A', found: 'B', matchScore: 42 },
  };

  it('reads both body shapes into the same fields', async () => {
    script('post', '/v2/a', [fail(422, shapeA)]);
    script('post', '/v2/b', [fail(422, shapeB)]);
    const t = transport();
    const a = await t.request({ method: 'POST', path: '/v2/a', body: {} }).catch((e: unknown) => e);
    const b = await t.request({ method: 'POST', path: '/v2/b', body: {} }).catch((e: unknown) => e);
    for (const e of [a, b]) {
      expect(e).toBeInstanceOf(UnprocessableEntityError);
      expect(e).toMatchObject({
        status: 422,
        code: 'NAME_MISMATCH',
        matchScore: 42,
        message: expect.stringContaining('Names differ'),
      });
    }
    expect((b as APIError).data).toEqual({ expected: 'A', found: 'B', matchScore: 42 });
  });

  it('treats success: false as an error even on a 200', async () => {
    script('post', '/v2/b', [
      fail(200, { success: false, error: 'Invalid OTP', message: 'wrong', attemptsRemaining: 2 }),
    ]);
    const e = await transport()
      .request({ method: 'POST', path: '/v2/b', body: {} })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(APIError);
    expect(e).toMatchObject({ status: 200, code: 'INVALID_OTP', attemptsRemaining: 2 });
  });

  it('keeps the API key out of every rendering of every error', async () => {
    const echo = `key ${KEY} rejected`;
    script('get', '/v2/e401', [fail(401, { error: 'Unauthorized', message: echo })]);
    script('get', '/v2/e503', [fail(503, { error: 'Down', message: echo, data: { key: KEY } })]);
    script('get', '/v2/drop', [() => HttpResponse.error()]);
    script('get', '/v2/shape', [ok(12)]);
    // Answers after the 1 ms timeout below, so that request ends in a timeout rather than an unhandled request.
    script('get', '/v2/slow', [
      () =>
        new Promise<Response>((resolve) =>
          setTimeout(() => resolve(HttpResponse.json({ success: true, data: {} })), 200),
        ) as never,
    ]);
    const logs: string[] = [];
    const t = transport({ maxRetries: 0, logger: { debug: (m, d) => logs.push(m, JSON.stringify(d)) } });
    const errors: unknown[] = [];
    for (const path of ['/v2/e401', '/v2/e503', '/v2/drop', '/v2/shape']) {
      errors.push(
        await t
          .request({ method: 'GET', path, dataSchema: z.object({ id: z.string() }) })
          .catch((e: unknown) => e),
      );
    }
    errors.push(
      await t.request({ method: 'GET', path: '/v2/slow' }, { timeout: 1 }).catch((e: unknown) => e),
    );
    const aborted = new AbortController();
    aborted.abort();
    errors.push(
      await t
        .request({ method: 'GET', path: '/v2/e401' }, { signal: aborted.signal })
        .catch((e: unknown) => e),
    );
    errors.push(
      await t
        .request({ method: 'POST', path: '/v2/x', body: 5, bodySchema: z.object({}) })
        .catch((e: unknown) => e),
    );
    expect(errors.every((e) => e instanceof Error)).toBe(true);
    expect(errors[4]).toBeInstanceOf(APITimeoutError);
    for (const error of errors) {
      const renderings = [
        String(error),
        (error as Error).stack ?? '',
        JSON.stringify(error),
        inspect(error, { depth: 10, showHidden: true }),
      ];
      for (const text of renderings) expect(text).not.toContain('SECRETkey123456');
    }
    for (const line of logs) expect(line).not.toContain('SECRETkey123456');
  });

  it('names the path of a response that does not match its schema, and tolerates unknown fields', async () => {
    script('get', '/v2/shape', [ok({ id: 5, extra: true })]);
    script('get', '/v2/loose', [ok({ id: 'x', extra: true })]);
    const schema = z.looseObject({ id: z.string() });
    const t = transport();
    const e = await t
      .request({ method: 'GET', path: '/v2/shape', dataSchema: schema })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ResponseValidationError);
    expect((e as ResponseValidationError).issues[0]?.path).toBe('data.id');
    await expect(t.request({ method: 'GET', path: '/v2/loose', dataSchema: schema })).resolves.toEqual({
      id: 'x',
      extra: true,
    });
  });

  it('validates the body before sending and sends nothing when it is invalid', async () => {
    const seen = script('post', '/v2/things', [ok({})]);
    const schema = z.object({ amount: z.string(), asset: z.enum(['USDC', 'USDT']) });
    const e = await transport()
      .request({ method: 'POST', path: '/v2/things', body: { asset: 'BTC' }, bodySchema: schema })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).issues).toEqual([
      { path: 'amount', message: 'is required' },
      { path: 'asset', message: 'must be one of "USDC", "USDT"' },
    ]);
    expect(seen).toHaveLength(0);
  });
});

describe('path parameters, through the shared msw server', () => {
  const BASE = BASE_redact;
  const server = server_redact;
  useServer();

  // Characters outside [A-Za-z0-9_-] that a real key may hold: every one of them must stay masked too.
  const KEY = 'pk_sandbox_Secret.part+2/part=3~end';

  describe('path parameters', () => {
    it.each(['.', '..'])('refuses %j before sending, naming the parameter', async (userId) => {
      const client = new PayoutClient({ apiKey: KEY, baseUrl: BASE, maxRetries: 0 });
      const error = await client.kyc.status(userId).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues[0]?.path).toBe('userId');
      expect((error as ValidationError).message).toMatch(/dot segment/);
      expect(requests).toHaveLength(0);
    });

    it('still sends an ID that merely contains dots', async () => {
      server.use(http.get(`${BASE}/v2/webhooks/:id/retry`, () => HttpResponse.json({})));
      server.use(
        http.post(`${BASE}/v2/webhooks/:id/retry`, ({ params }) =>
          HttpResponse.json({ success: true, data: { id: params.id, status: 'pending', attempts: 0 } }),
        ),
      );
      const client = new PayoutClient({ apiKey: KEY, baseUrl: BASE, maxRetries: 0 });
      await client.webhooks.retry('...').catch(() => undefined);
      expect(new URL(requests[0]?.url ?? '').pathname).toBe('/v2/webhooks/.../retry');
    });
  });
});

describe('idempotency keys, made with the uuid package', () => {
  const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  afterEach(() => vi.restoreAllMocks());

  // The client makes its idempotency keys with the uuid package's v4 and checks a caller's own key with its validate.
  describe('1: idempotency keys are random version 4 UUIDs', () => {
    it('1: uses crypto.randomUUID where the runtime has it', () => {
      const spy = vi.spyOn(globalThis.crypto, 'randomUUID');
      expect(v4()).toMatch(V4);
      expect(spy).toHaveBeenCalledOnce();
    });

    it('1: still makes valid v4 UUIDs where randomUUID is missing (pages on plain http)', () => {
      Object.defineProperty(globalThis.crypto, 'randomUUID', { value: undefined, configurable: true });
      try {
        const keys = new Set(Array.from({ length: 500 }, () => v4()));
        expect(keys.size).toBe(500);
        for (const key of keys) expect(key).toMatch(V4);
      } finally {
        // Drops the own property, so the prototype's randomUUID shows through again.
        Reflect.deleteProperty(globalThis.crypto, 'randomUUID');
      }
    });

    it('1: accepts any RFC 9562 UUID as a caller key and refuses other strings', () => {
      expect(validate('0190f3b6-7c1e-7a4b-9c2d-3e4f5a6b7c8d')).toBe(true);
      expect(validate('order-42')).toBe(false);
      expect(validate('')).toBe(false);
    });
  });
});
