import { inspect } from 'node:util';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  ConfigurationError,
  PayoutClient,
  ResponseValidationError,
} from '../../src/index.js';
import { BASE, server, useServer } from '../support/msw.js';

useServer();

// Characters outside [A-Za-z0-9_-] that a real key may hold: every one of them must stay masked too.
const KEY = 'pk_sandbox_Secret.part+2/part=3~end';
const SECRET_PARTS = ['Secret', 'part+2', 'part=3', '~end'];

function renderings(error: unknown): string[] {
  const e = error as Error & { headers?: Headers; body?: unknown; cause?: unknown };
  return [
    String(e),
    e.stack ?? '',
    String(JSON.stringify(e)),
    inspect(e, { depth: 10, showHidden: true }),
    inspect(e.cause, { depth: 10, showHidden: true }),
    JSON.stringify([...(e.headers?.entries() ?? [])]),
    String(JSON.stringify(e.body)),
  ];
}

function expectNoKey(error: unknown): void {
  expect(error).toBeInstanceOf(Error);
  for (const text of renderings(error)) {
    for (const part of SECRET_PARTS) expect(text).not.toContain(part);
  }
}

describe('the API key (never accepted malformed, never shown)', () => {
  it.each([
    ['an inner newline', 'pk_sandbox_abc\ndef'],
    ['a trailing newline', 'pk_sandbox_abc\n'],
    ['a space', 'pk_sandbox_abc def'],
    ['a tab', 'pk_sandbox_abc\tdef'],
    ['a NUL', 'pk_sandbox_abc\u0000def'],
    ['DEL', 'pk_sandbox_abc\u007fdef'],
    ['a non-ASCII letter', 'pk_sandbox_abcédef'],
  ])('refuses a key with %s at construction, without quoting it', (_what, apiKey) => {
    let thrown: unknown;
    try {
      new PayoutClient({ apiKey, baseUrl: BASE });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigurationError);
    expect((thrown as Error).message).toMatch(/whitespace, control or non-ASCII/);
    expect((thrown as Error).message).not.toContain('abc');
  });

  it('masks the whole key in message, stack, headers, body, data and every rendering of an error answer', async () => {
    const echo = `key ${KEY} rejected`;
    server.use(
      http.get(`${BASE}/v2/account`, () =>
        HttpResponse.json(
          { error: 'Unauthorized', message: echo, data: { key: KEY, [KEY]: [KEY] } },
          { status: 401, headers: { 'x-echo-authorization': `Bearer ${KEY}` } },
        ),
      ),
    );
    const client = new PayoutClient({ apiKey: KEY, baseUrl: BASE, maxRetries: 0 });
    const error = await client.account.retrieve().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    const apiError = error as APIError;
    expect(apiError.message).toContain('pk_sandbox_***');
    expect(apiError.headers.get('x-echo-authorization')).toBe('Bearer pk_sandbox_***');
    expect(apiError.body).toEqual({
      error: 'Unauthorized',
      message: 'key pk_sandbox_*** rejected',
      data: { key: 'pk_sandbox_***', 'pk_sandbox_***': ['pk_sandbox_***'] },
    });
    expectNoKey(error);
  });

  it('masks the key in the body of a ResponseValidationError', async () => {
    server.use(
      http.get(`${BASE}/v2/account`, () => HttpResponse.json({ success: true, data: { echoed: KEY } })),
    );
    const client = new PayoutClient({ apiKey: KEY, baseUrl: BASE, maxRetries: 0 });
    const error = await client
      .request({ method: 'GET', path: '/v2/account', dataSchema: z.object({ id: z.string() }) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).body).toEqual({
      success: true,
      data: { echoed: 'pk_sandbox_***' },
    });
    expectNoKey(error);
  });

  it('keeps the key out of a time-out, whose request inside ky carries it when no hook is installed', async () => {
    server.use(http.get(`${BASE}/v2/account`, () => new Promise<never>(() => undefined)));
    const client = new PayoutClient({ apiKey: KEY, baseUrl: BASE, maxRetries: 0, timeout: 20 });
    const error = await client.account.retrieve().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APITimeoutError);
    expectNoKey(error);
  });

  it('masks the key in the cause of a connection error', async () => {
    const failing: typeof fetch = async () => {
      throw new TypeError(`could not send Authorization: Bearer ${KEY}`, {
        cause: Object.assign(new Error(`socket said ${KEY}`), { code: 'ECONNRESET' }),
      });
    };
    const client = new PayoutClient({ apiKey: KEY, baseUrl: BASE, maxRetries: 0, fetch: failing });
    const error = await client.account.retrieve().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    const cause = (error as Error).cause as Error & { cause: Error & { code: string } };
    expect(cause.message).toBe('could not send Authorization: Bearer pk_sandbox_***');
    expect(cause.cause.code).toBe('ECONNRESET');
    expectNoKey(error);
  });
});
