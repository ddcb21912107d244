// MSW plumbing for the resource tests: a server that refuses unmocked requests, a record of every request
// made, and routes that capture exactly what the client sent.
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { type ClientOptions, PayoutClient } from '../../src/index.js';

export const BASE = 'https://api.test';
export const KEY = 'pk_sandbox_test';
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export const server = setupServer();

/** Every request that reached the network layer in the current test. */
export const requests: Request[] = [];

/** Starts the server for the file's tests and resets routes and the request log after each. */
export function useServer(): void {
  beforeAll(() => {
    server.listen({ onUnhandledRequest: 'error' });
    server.events.on('request:start', ({ request }) => {
      requests.push(request);
    });
  });
  afterEach(() => {
    server.resetHandlers();
    requests.length = 0;
  });
  afterAll(() => {
    server.events.removeAllListeners();
    server.close();
  });
}

/** A client for `BASE` with retries off unless asked for. */
export function makeClient(options: ClientOptions = {}): PayoutClient {
  return new PayoutClient({ apiKey: KEY, baseUrl: BASE, maxRetries: 0, ...options });
}

/** A resource test file's set-up: the server for its tests (`useServer`) and a client on it (`makeClient`). */
export function useClient(options: ClientOptions = {}): PayoutClient {
  useServer();
  return makeClient(options);
}

/** Poll options that keep a wait's test short: a read every 50 ms, for at most 5 s. */
export const fast = { interval: 50, deadline: 5_000 };

/** What one request carried. */
export interface Seen {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Headers;
  /** The parsed JSON body, or `undefined` when none was sent. */
  body: unknown;
  raw: string;
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Answer = Response | ((seen: Seen, index: number) => Response | Promise<Response>);

/**
 * Routes `method path` to `answers` (one per request in turn; the last repeats) and returns the list of what each
 * request carried.
 */
export function route(method: Method, path: string, ...answers: Answer[]): Seen[] {
  const seen: Seen[] = [];
  server.use(
    http[method](`${BASE}${path}`, async ({ request }) => {
      const url = new URL(request.url);
      const raw = await request.text();
      const entry: Seen = {
        method: request.method,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: request.headers,
        body: raw === '' ? undefined : JSON.parse(raw),
        raw,
      };
      seen.push(entry);
      const answer = answers[Math.min(seen.length - 1, answers.length - 1)];
      if (answer === undefined) throw new Error('no answer scripted');
      return typeof answer === 'function' ? answer(entry, seen.length - 1) : answer.clone();
    }),
  );
  return seen;
}

/** A success envelope `{ success: true, data, ...extra }`. */
export function ok(data: unknown, extra: Record<string, unknown> = {}, status = 200): Response {
  return HttpResponse.json({ success: true, data, ...extra }, { status });
}

/** An error answer with `body` and `status`. */
export function fail(status: number, body: Record<string, unknown>): Response {
  return HttpResponse.json(body, { status });
}

/** Asserts the one request in `seen` and its standard headers; returns it. */
export function only(seen: Seen[], mutating: boolean): Seen {
  expect(seen).toHaveLength(1);
  const [request] = seen;
  if (!request) throw new Error('no request');
  expect(request.headers.get('authorization')).toBe(`Bearer ${KEY}`);
  expect(request.headers.get('accept')).toBe('application/json');
  if (mutating) {
    expect(request.headers.get('idempotency-key')).toMatch(UUID);
  } else {
    expect(request.headers.get('idempotency-key')).toBeNull();
  }
  if (request.body !== undefined) expect(request.headers.get('content-type')).toMatch(/^application\/json/);
  return request;
}
