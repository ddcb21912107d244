/**
 * Drives mock services with plain `fetch` through one MSW server per test file.
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createMockService, type MockService, type MockServiceOptions } from '../../mock/index.js';
import { mswHandlers } from '../../mock/msw/index.js';
import type { MockState } from '../../mock/state/mock-state.js';

export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

export interface CallOptions {
  body?: unknown;
  key?: string | null;
  headers?: Record<string, string>;
  idempotencyKey?: string;
}

/** A `fetch` against one service with its sandbox key unless told otherwise. */
export function caller(service: MockService) {
  return async (method: string, path: string, options: CallOptions = {}): Promise<Answer> => {
    const key = options.key === undefined ? service.sandboxKey : options.key;
    const headers: Record<string, string> = { 'Content-Type': 'application/json', ...options.headers };
    if (key !== null) headers.Authorization = `Bearer ${key}`;
    if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
    const response = await fetch(`${service.baseUrl}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : {} };
  };
}

/**
 * One MSW server for the file; `use(options)` creates a service and puts its handlers in front. Services
 * are dropped after each test.
 */
export function mockServer() {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return {
    server,
    use(options: MockServiceOptions = {}) {
      const service = createMockService(options);
      server.use(...mswHandlers(service));
      return { service, call: caller(service) };
    },
  };
}

/** A user created through the API. */
export async function createUser(
  call: ReturnType<typeof caller>,
  body: Record<string, unknown> = { mobile: '9876543210', email: 'asha@example.com', name: 'Asha Rao' },
): Promise<string> {
  const answer = await call('POST', '/v2/users', { body });
  if (answer.status !== 201) throw new Error(`user create failed: ${JSON.stringify(answer.body)}`);
  const data = answer.body.data as { userId: string };
  return data.userId;
}

/**
 * A POST of `size` characters through `mock`'s own dispatch to a route that stores nothing (an invalid user:
 * 400): what the byte budgets of the journal and the replay recording are tested with. Resolves with the status.
 */
export async function postNothing(mock: MockService, size: number): Promise<number> {
  const response = await mock.dispatch(
    new Request(`${mock.baseUrl}/v2/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mock.sandboxKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ note: 'x'.repeat(size) }),
    }),
  );
  return response?.status ?? 0;
}

/** The state without the rate-limit windows, which every request counts against (spec 8), refused or not. */
export function withoutRateWindows(state: MockState): unknown {
  const { rateWindows: _windows, ...http } = state.http;
  return { ...state, http };
}
