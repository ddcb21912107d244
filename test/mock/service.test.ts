import { getResponse, http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { MockApiError } from '../../mock/engine/errors.js';
import { createServiceInternals } from '../../mock/engine/internals.js';
import { resolveOptions } from '../../mock/engine/options.js';
import { route } from '../../mock/engine/route.js';
import { createDispatch } from '../../mock/http/dispatch.js';
import { compileRoutes } from '../../mock/http/router.js';
import { createMockService, type MockService, type MockState } from '../../mock/index.js';
import { mswHandlers } from '../../mock/msw/index.js';
import { initialState } from '../../mock/operations/accounts.js';
import { createUser, mockServer } from './support.js';

const mock = mockServer();

describe('createMockService', () => {
  it('exposes the base URL, keys, secret and a default account with the documented defaults', () => {
    const service = createMockService();
    expect(service.baseUrl).toBe('https://sandbox.inr-payouts.test');
    const account = service.helpers.accounts.get();
    expect(account).toMatchObject({
      id: service.accountId,
      status: 'active',
      keys: { sandbox: service.sandboxKey, live: service.liveKey },
      webhookSecret: service.webhookSecret,
      developerFee: { enabled: false, percent: 0 },
      limits: { rateLimit: 600 },
      ipAllowList: { enabled: false, addresses: [] },
      prefunded: { approved: false, creditLimitUsd: '0' },
    });
    expect(account.webhookUrl).toBeUndefined();
    expect(service.accounts).toBe(service.helpers.accounts);
  });

  it('takes account settings and fixed keys', () => {
    const service = createMockService({
      account: {
        webhookUrl: 'https://partner.test/hooks',
        sandboxKey: 'pk_sandbox_fixed',
        prefunded: { approved: true, creditLimitUsd: '5000' },
      },
    });
    expect(service.sandboxKey).toBe('pk_sandbox_fixed');
    expect(service.helpers.accounts.get()).toMatchObject({
      webhookUrl: 'https://partner.test/hooks',
      prefunded: { approved: true },
    });
    expect(() => service.helpers.accounts.create({ sandboxKey: 'pk_sandbox_fixed' })).toThrow(
      /already uses that API key/,
    );
  });

  it('serves several independent instances in one process', async () => {
    const a = mock.use({ baseUrl: 'https://a.test', seed: 'same' });
    const b = mock.use({ baseUrl: 'https://b.test', seed: 'same' });
    const userA = await createUser(a.call);
    expect(Object.keys(b.service.state.users.byId)).toHaveLength(0);
    const userB = await createUser(b.call);
    expect(userB).toBe(userA);
    await a.service.clock.advance('1h');
    expect(b.service.clock.nowIso()).toBe('2025-01-01T00:00:00.000Z');
  });

  it('serves under a base URL with a path prefix', async () => {
    const { service, call } = mock.use({ baseUrl: 'https://gw.test/payouts/' });
    expect(service.baseUrl).toBe('https://gw.test/payouts');
    expect(await createUser(call)).toMatch(/^usr_/);
  });
  it('normalises its base URL once, as request URLs are spelled, and refuses one that is not a URL', async () => {
    const service = createMockService({ baseUrl: 'HTTPS://GW.Test:443/payouts//' });
    expect(service.baseUrl).toBe('https://gw.test/payouts');
    const response = await service.fetch('https://gw.test/payouts/v2/account', {
      headers: { Authorization: `Bearer ${service.sandboxKey}` },
    });
    expect(response.status).toBe(200);
    expect(() => createMockService({ baseUrl: 'gw.test/payouts' })).toThrow(
      /baseUrl must be an absolute URL .* got gw\.test\/payouts/,
    );
  });
  it('serves the same handler list through msw getResponse, as the standalone server will', async () => {
    const service = createMockService({ baseUrl: 'http://127.0.0.1:4010' });
    const request = new Request('http://127.0.0.1:4010/v2/users', {
      method: 'POST',
      headers: { Authorization: `Bearer ${service.sandboxKey}`, 'x-mock-client-ip': '10.0.0.2' },
      body: JSON.stringify({ mobile: '9876543210' }),
    });
    const response = await getResponse(mswHandlers(service), request);
    expect(response?.status).toBe(201);
    expect(
      await getResponse(mswHandlers(service), new Request('http://127.0.0.1:4010/elsewhere')),
    ).toBeUndefined();
  });
});

describe('snapshot, restore, reset, seed', () => {
  it('restores a snapshot: records, clock, pending timers and the ID sequence', async () => {
    const { service, call } = mock.use();
    // The key's expiry, 24 hours on, is a timer the advance below runs and the restore brings back.
    const body = { mobile: '9876543210' };
    expect((await call('POST', '/v2/users', { body, idempotencyKey: 'k-restore' })).status).toBe(201);
    const snapshot = service.helpers.snapshot();
    await service.clock.advance('25h');
    expect(service.helpers.clock.pending()).toEqual([]);
    const second = await createUser(call, { mobile: '9876543211' });
    service.helpers.restore(snapshot);
    expect(Object.keys(service.state.users.byId)).toHaveLength(1);
    expect(service.clock.nowIso()).toBe('2025-01-01T00:00:00.000Z');
    expect(service.helpers.clock.pending().map((t) => t.kind)).toEqual(['idempotency.expire']);
    expect(await createUser(call, { mobile: '9876543211' })).toBe(second);
  });

  it('a snapshot survives JSON (the standalone server persists it to a file)', async () => {
    const { service, call } = mock.use();
    await call('POST', '/v2/users', { body: { mobile: '9876543210' }, idempotencyKey: 'k1' });
    const text = JSON.stringify(service.helpers.snapshot());
    service.helpers.reset();
    service.helpers.restore(JSON.parse(text) as MockState);
    expect(
      (await call('POST', '/v2/users', { body: { mobile: '9876543210' }, idempotencyKey: 'k1' })).status,
    ).toBe(200);
    const before = service.helpers.snapshot();
    expect(() => service.helpers.restore({ ...before, version: 2 } as unknown as MockState)).toThrow(
      'Cannot restore: not a mock state of version 1: version: the state is of version 2 and this mock reads version 1 only',
    );
    expect(service.helpers.snapshot()).toEqual(before);
  });

  it('reset returns to the initial state with the same keys; another seed gives other IDs', async () => {
    const { service, call } = mock.use();
    const key = service.sandboxKey;
    const first = await createUser(call);
    await service.clock.advance('1d');
    service.helpers.reset();
    expect(service.sandboxKey).toBe(key);
    expect(Object.keys(service.state.users.byId)).toHaveLength(0);
    expect(service.clock.nowIso()).toBe('2025-01-01T00:00:00.000Z');
    expect(await createUser(call)).toBe(first);
    service.helpers.reset({ seed: 'other' });
    expect(service.sandboxKey).not.toBe(key);
  });

  it("reset makes the service's options again: the account's webhook URL and chaos begun afresh", () => {
    const webhookUrl = 'http://127.0.0.1:9/webhooks';
    const service = createMockService({ account: { webhookUrl }, chaos: { seed: 7, rate: 1 } });
    const started = service.helpers.snapshot().http.chaos;
    service.helpers.accounts.update({ webhookUrl: null, name: 'Renamed' });
    service.helpers.faults.clear();
    for (const reset of [undefined, { seed: 'other' }]) {
      service.helpers.reset(reset);
      expect(service.helpers.accounts.get()).toMatchObject({ webhookUrl, name: 'Test Partner' });
      expect(service.helpers.snapshot().http.chaos).toEqual(started);
    }
    // A bundle carries the option, so its replay starts with the same chaos.
    expect(service.bundle().options.chaos).toEqual({ seed: 7, rate: 1 });
    expect(() => createMockService({ chaos: { seed: 7, rate: 2 } })).toThrow(/Chaos options rejected \(rate/);
  });

  it('seedVerified writes a verified user into state and sends no event: no user.created, no kyc.*', async () => {
    const service = createMockService({ account: { webhookUrl: 'http://127.0.0.1:9/webhooks' } });
    const { userId } = service.helpers.users.seedVerified({ mobile: '9876543210' });
    await service.clock.advance('1h');
    expect(service.state.kyc.byUserId[userId]?.status).toBe('verified');
    expect(service.helpers.webhooks.events()).toEqual([]);
  });

  it('seed loads users directly, with verified channels if asked, into any account', () => {
    const service = createMockService();
    const { users } = service.helpers.seed({
      users: [{ mobile: '9876543210', email: 'a@example.com', mobileVerified: true }],
    });
    expect(users[0]).toMatchObject({ mobile: '+919876543210', mobileVerified: true, emailVerified: false });
    expect(Object.keys(service.state.webhooks.byId)).toHaveLength(0);
    expect(() => service.helpers.seed({ users: [{ mobile: '+919876543210' }] })).toThrow(
      /already registered/,
    );
    const other = service.helpers.accounts.create();
    expect(
      service.helpers.seed({ accountId: other.id, users: [{ mobile: '9876543210' }] }).users,
    ).toHaveLength(1);
    expect(() => service.helpers.seed({ accountId: 'nope', users: [] })).toThrow(/No account nope/);
  });
});

describe('the pipeline for new routes', () => {
  const options = resolveOptions({ baseUrl: 'https://ext.test' });
  const runtime = createServiceInternals(options, initialState(options));
  let calls = 0;
  const key = runtime.state.accounts.byId[runtime.state.accounts.defaultId]?.keys.sandbox ?? '';
  // Rows of the pipeline's own, outside the endpoint table.
  const data = z.unknown();
  const routes = [
    route({ method: 'GET', path: '/v2/things/{thingId}', data } as const, ({ params, query }) => {
      if (params.thingId === 'boom') throw new Error('database on fire');
      if (params.thingId === 'gone')
        throw new MockApiError(404, { error: 'Not Found', message: 'No thing', code: 'THING_NOT_FOUND' });
      return {
        data: { id: params.thingId, filter: query.filter, absent: undefined },
        extra: { pagination: { page: 1 } },
      };
    }),
    route({ method: 'POST', path: '/v2/b/{id}', data, shape: 'B' } as const, () => {
      throw new Error('oops');
    }),
    route({ method: 'POST', path: '/v2/slow', data, status: 201 } as const, async () => {
      calls += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { data: { call: calls } };
    }),
  ];
  const dispatch = createDispatch(compileRoutes({ routes }));
  const handlers = [
    http.all(
      ({ request }) => request.url.startsWith('https://ext.test/'),
      ({ request }) => dispatch(runtime, request),
    ),
  ];
  // One MSW server per process: a second one would intercept the same requests.
  beforeEach(() => mock.server.use(...handlers));
  const get = async (path: string, method = 'GET') => {
    const res = await fetch(`https://ext.test${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}` },
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('1: wraps data in the success envelope, omits absent fields, adds extra top-level fields', async () => {
    expect(await get('/v2/things/t1?filter=new&filter=old')).toEqual({
      status: 200,
      body: { success: true, data: { id: 't1', filter: 'new' }, pagination: { page: 1 } },
    });
  });

  it('7.1: a MockApiError answers in shape A; a thrown bug answers 500 in the route shape and the service stays usable', async () => {
    expect(await get('/v2/things/gone')).toEqual({
      status: 404,
      body: { error: 'Not Found', message: 'No thing', code: 'THING_NOT_FOUND' },
    });
    const bug = await get('/v2/things/boom');
    expect(bug.status).toBe(500);
    expect(bug.body).toEqual({
      error: 'Internal Server Error',
      message: 'The mock failed while handling this request: database on fire',
      code: 'INTERNAL_ERROR',
    });
    expect((await get('/v2/b/1', 'POST')).body).toMatchObject({
      success: false,
      error: 'Internal Server Error',
    });
    expect((await get('/v2/things/t2')).status).toBe(200);
  });

  it('8: a request with a key that is still executing is waited for, then replayed (async resolver)', async () => {
    const post = () =>
      fetch('https://ext.test/v2/slow', {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Idempotency-Key': 'slow-1' },
        body: '{}',
      });
    const answers = await Promise.all([post(), post(), post()]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 201]);
    expect(calls).toBe(1);
    expect(runtime.inflight.size).toBe(0);
  });
});

/**
 * The work a request makes due at once (attempt 1 of the webhook an answer emitted) runs before the answer goes
 * back, the same way whichever door the request came in by: `mock.fetch`, msw's handlers, the standalone server.
 * No clock move and no `settle()` is needed for the receiver to have been called.
 */
describe('the work a request makes due runs before its answer, whichever way it came in', () => {
  /** Points `mock`'s webhooks at an in-process receiver; the events it has been sent so far. */
  function receiver(mock: MockService): string[] {
    const received: string[] = [];
    mock.helpers.accounts.update({ webhookUrl: 'https://partner.test/hooks' });
    mock.helpers.webhooks.useFetch(async (_url, init) => {
      received.push(JSON.parse(String(init.body)).event);
      return new Response(null, { status: 200 });
    });
    return received;
  }

  const createUser = (mock: MockService, baseUrl = mock.baseUrl) =>
    new Request(`${baseUrl}/v2/users`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${mock.sandboxKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ mobile: '9876543210' }),
    });

  describe('due work after a request', () => {
    it('mock.fetch: attempt 1 has been sent when the answer comes back, on a clock that never moved', async () => {
      const mock = createMockService();
      const received = receiver(mock);
      expect((await mock.fetch(createUser(mock))).status).toBe(201);
      expect(received).toEqual(['user.created']);
      expect(mock.helpers.clock.pending()).toEqual([]);
      expect(mock.clock.nowIso()).toBe('2025-01-01T00:00:00.000Z');
    });

    it("msw's handlers: the same", async () => {
      const mock = createMockService();
      const received = receiver(mock);
      const answer = await getResponse(mswHandlers(mock), createUser(mock));
      expect(answer?.status).toBe(201);
      expect(received).toEqual(['user.created']);
    });

    it('a receiver that calls the mock back from a delivery is answered, and the delivery completes', async () => {
      const mock = createMockService();
      const statuses: number[] = [];
      mock.helpers.accounts.update({ webhookUrl: 'https://partner.test/hooks' });
      mock.helpers.webhooks.useFetch(async () => {
        const account = await mock.fetch(`${mock.baseUrl}/v2/account`, {
          headers: { Authorization: `Bearer ${mock.sandboxKey}` },
        });
        statuses.push(account.status);
        return new Response(null, { status: 200 });
      });
      expect((await mock.fetch(createUser(mock))).status).toBe(201);
      await mock.helpers.webhooks.settle();
      expect(statuses).toEqual([200]);
      expect(mock.helpers.webhooks.events()[0]?.status).toBe('delivered');
    });
  });
});
