// The in-process mock's cost per request: `client.account.retrieve()` answered by the mock (auth, rate limit,
// the account resolver, the envelope) through `setupServer(...mswHandlers(mock))`, and through `mock.fetch` (the
// client's `fetch` option: no interception at all), against the same client call answered by a trivial msw
// handler returning the same JSON. Targets, same run: at most 1.3x through msw, at most 0.7x through
// mock.fetch. Each msw contender runs with only its own handlers installed (swapped once per batch), so
// neither pays for the other's matching.
// Run: npm run bench -- test/bench/mock-request.bench.ts
import { PayoutClient } from 'inr-payouts';
import { HttpResponse, http, type RequestHandler } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { createMockService } from '../../mock/index.js';
import { mswHandlers } from '../../mock/msw/index.js';
import { measureInterleaved, printRatios } from './ratio.js';
import { TARGETS } from './targets.js';

const TRIVIAL_BASE = 'https://trivial.test';
const mock = createMockService({ seed: 'bench-request' });
// The bench makes far more calls than the per-minute limit allows on the stopped clock.
mock.helpers.accounts.update({ limits: { rateLimit: Number.MAX_SAFE_INTEGER } });
const server = setupServer();
const mockClient = new PayoutClient({ apiKey: mock.sandboxKey, baseUrl: mock.baseUrl });
const trivialClient = new PayoutClient({ apiKey: mock.sandboxKey, baseUrl: TRIVIAL_BASE });
// On the real clock, like the other two: only the transport differs.
const fetchClient = new PayoutClient({ apiKey: mock.sandboxKey, baseUrl: mock.baseUrl, fetch: mock.fetch });
const handlers: Record<string, RequestHandler[]> = { mock: mswHandlers(mock), trivial: [] };
let installed = '';

function using(name: 'mock' | 'trivial', client: PayoutClient) {
  return () => {
    if (installed !== name) {
      server.resetHandlers(...(handlers[name] ?? []));
      installed = name;
    }
    return client.account.retrieve();
  };
}

const contenders = {
  mock: using('mock', mockClient),
  trivial: using('trivial', trivialClient),
  // Never intercepted, whatever handlers msw has installed.
  fetch: () => fetchClient.account.retrieve(),
};

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  const answer = await (
    await mock.dispatch(
      new Request(`${mock.baseUrl}/v2/account`, { headers: { Authorization: `Bearer ${mock.sandboxKey}` } }),
    )
  )?.json();
  handlers.trivial = [http.get(`${TRIVIAL_BASE}/v2/account`, () => HttpResponse.json(answer))];
});

afterAll(async () => {
  // Warm both contenders' code paths, then many short rounds: a round's two batches run within ~50 ms of each
  // other, so the per-round ratios see the same load.
  await measureInterleaved(contenders, { rounds: 4, batch: 20 });
  const micros = await measureInterleaved(contenders, { rounds: 120, batch: 20 });
  printRatios(
    'in-process mock, client.account.retrieve() through setupServer and through mock.fetch',
    micros,
    [
      { target: TARGETS.mockRequest, subject: 'mock', baseline: 'trivial' },
      { target: TARGETS.mockFetch, subject: 'fetch', baseline: 'trivial' },
    ],
  );
  server.close();
}, 120_000);

describe('in-process request cost', () => {
  bench('trivial msw handler', async () => {
    await contenders.trivial();
  });
  bench('the mock (setupServer(...mswHandlers(mock)))', async () => {
    await contenders.mock();
  });
  bench('the mock (mock.fetch, no msw)', async () => {
    await contenders.fetch();
  });
});
