import { describe, expect, it } from 'vitest';
import { capBody, JOURNAL_BODY_LIMIT } from '../../../mock/engine/journal.js';
import { JOURNAL_BUDGET_BYTES, RECORDING_BUDGET_BYTES } from '../../../mock/index.js';
import { serveHelper } from '../../../mock/server/helpers-api.js';
import { createMockService } from '../../../mock/service.js';
import { postNothing } from '../support.js';

function api(mock: ReturnType<typeof createMockService>) {
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await mock.dispatch(
      new Request(`${mock.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${mock.sandboxKey}`,
          'content-type': 'application/json',
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    if (!response) throw new Error(`no route for ${path}`);
    return { status: response.status, headers: response.headers, body: await response.json() };
  };
}

describe('the journal: what the mock did, on the virtual clock', () => {
  it('records requests, transitions, webhook attempts, timers and helper calls, filterable by transaction', async () => {
    const mock = createMockService({ seed: 'journal' });
    const call = api(mock);
    const delivered: string[] = [];
    mock.helpers.webhooks.useFetch(async (_url, init) => {
      delivered.push(String(init.body));
      return new Response('ok');
    });
    mock.helpers.accounts.update({ webhookUrl: 'https://receiver.example/hooks' });
    mock.helpers.tranches.replace([{ rate: '83.10', inrAmount: '100000' }]);

    const user = await call('POST', '/v2/users', {
      mobile: '9876543211',
      email: 'ravi@example.com',
      name: 'Ravi',
    });
    expect(user.status).toBe(201);
    const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210', name: 'Asha Rao' });
    const created = await call(
      'POST',
      '/v2/transactions',
      { userId, amount: '100', asset: 'USDT', network: 'polygon', partnerReference: 'order-1' },
      { 'idempotency-key': 'key-1' },
    );
    expect(created.status).toBe(201);
    const replay = await call(
      'POST',
      '/v2/transactions',
      { userId, amount: '100', asset: 'USDT', network: 'polygon', partnerReference: 'order-1' },
      { 'idempotency-key': 'key-1' },
    );
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const transactionId: string = created.body.data.transactionId;
    const ms = mock.helpers.transactions.simulateDeposit({ transactionId });
    await mock.clock.advance(ms + 20_000);
    await mock.helpers.webhooks.settle();
    expect((await call('GET', `/v2/transactions/${transactionId}`)).body.data.transaction.status).toBe(
      'completed',
    );
    expect(() => mock.helpers.transactions.completePayout({ transactionId })).toThrow();

    const requests = mock.journal.entries({ type: 'request' });
    expect(requests.map((r) => r.type === 'request' && [r.method, r.route, r.status])).toEqual([
      ['POST', '/v2/users', 201],
      ['POST', '/v2/transactions', 201],
      ['POST', '/v2/transactions', 200],
      ['GET', '/v2/transactions/:transactionId', 200],
    ]);
    expect(requests[1]).toMatchObject({
      idempotencyKey: 'key-1',
      replayed: false,
      rateLimit: { limit: expect.any(Number), remaining: expect.any(Number) },
      at: '2025-01-01T00:00:00.000Z',
    });
    expect(requests[2]).toMatchObject({ idempotencyKey: 'key-1', replayed: true });
    expect(requests[3]).toMatchObject({ transactionId });

    const moved = mock.journal.entries({ type: 'transition', transactionId });
    const transitions = moved.filter((t) => t.type === 'transition' && t.resource === 'transaction');
    // Beside the transaction: its rate attribution and the delivery of each of its events.
    expect(new Set(moved.map((t) => t.type === 'transition' && `${t.resource} ${t.from}→${t.to}`))).toEqual(
      new Set([
        'transaction created→deposit_pending',
        'transaction deposit_pending→deposit_detected',
        'transaction deposit_detected→deposit_confirmed',
        'transaction deposit_confirmed→payout_processing',
        'transaction payout_processing→completed',
        'attribution pending→attributed',
        'webhook-delivery pending→delivered',
      ]),
    );
    expect(transitions.map((t) => t.type === 'transition' && `${t.from}→${t.to}`)).toEqual([
      'created→deposit_pending',
      'deposit_pending→deposit_detected',
      'deposit_detected→deposit_confirmed',
      'deposit_confirmed→payout_processing',
      'payout_processing→completed',
    ]);
    expect(transitions[0]).toMatchObject({
      resource: 'transaction',
      id: transactionId,
      userId,
      trigger: 'deposit.seen',
    });

    const attempts = mock.journal.entries({ type: 'webhook', transactionId });
    expect(attempts.map((a) => a.type === 'webhook' && [a.eventType, a.attempt, a.status, a.ok])).toEqual([
      ['transaction.created', 1, 200, true],
      ['transaction.deposit_detected', 1, 200, true],
      ['transaction.deposit_confirmed', 1, 200, true],
      ['transaction.payout_initiated', 1, 200, true],
      ['transaction.payout_completed', 1, 200, true],
    ]);
    expect(delivered).toHaveLength(attempts.length + 1); // and user.created

    const timers = mock.journal.entries({ type: 'timer', transactionId });
    expect(new Set(timers.map((t) => t.type === 'timer' && t.kind))).toEqual(
      new Set(['transaction.block', 'transaction.payout_attribute', 'transaction.payout_settle']),
    );
    expect(
      mock.journal.entries({ type: 'timer' }).some((t) => t.type === 'timer' && t.kind === 'webhook.deliver'),
    ).toBe(true);

    const helpers = mock.journal.entries({ type: 'helper' });
    expect(helpers.map((h) => h.type === 'helper' && [h.name, h.refused])).toEqual([
      ['webhooks.useFetch', false],
      ['accounts.update', false],
      ['tranches.replace', false],
      ['users.seedVerified', false],
      ['transactions.simulateDeposit', false],
      ['webhooks.settle', false],
      ['transactions.completePayout', true],
    ]);

    // One sequence, in order, on the virtual clock; the filters are the same over HTTP's helper.
    const all = mock.journal.entries();
    expect(all.map((e) => e.seq)).toEqual(all.map((_, i) => i + 1));
    expect(mock.helpers.journal({ transactionId, type: 'transition' })).toEqual(moved);
    expect(mock.helpers.journal({ since: all.length - 2 })).toEqual(all.slice(-2));
    // The user's own path comes first: the steps the seeding helper stands in for, then the transaction's.
    const userTransitions = mock.helpers
      .journal({ userId, type: 'transition' })
      .filter(
        (t) => t.type === 'transition' && ['kyc-step', 'kyc-aggregate', 'transaction'].includes(t.resource),
      );
    expect(userTransitions.slice(-transitions.length)).toEqual(transitions);
    expect(
      userTransitions
        .slice(0, -transitions.length)
        .map((e) => e.type === 'transition' && [e.resource, e.id, e.to]),
    ).toEqual([
      ['kyc-step', 'mobile', 'verified'],
      ['kyc-step', 'aadhaar', 'verified'],
      ['kyc-step', 'pan', 'verified'],
      ['kyc-step', 'bank', 'verified'],
      ['kyc-aggregate', userId, 'verified'],
    ]);
    // The journal stays out of the state, so snapshots stay small.
    expect(JSON.stringify(mock.helpers.snapshot())).not.toContain('"seq"');
  });

  it("names the user and transaction a create's body or answer names, so the filters find the request that began them", async () => {
    const mock = createMockService({ seed: 'journal-ids' });
    const call = api(mock);
    const user = await call('POST', '/v2/users', { mobile: '9876543212', name: 'Meera' });
    const newUserId = (user.body as { data: { userId: string } }).data.userId;
    const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543213', name: 'Asha Rao' });
    const created = await call('POST', '/v2/transactions', {
      userId,
      amount: '100',
      asset: 'USDT',
      network: 'polygon',
    });
    expect(created.status).toBe(201);
    const transactionId = (created.body as { data: { transactionId: string } }).data.transactionId;
    await call('GET', `/v2/transactions/${transactionId}`);

    const routes = (filter: { userId?: string; transactionId?: string }) =>
      mock.journal
        .entries({ ...filter, type: 'request' })
        .map((entry) => (entry.type === 'request' ? `${entry.method} ${entry.route}` : ''));
    expect(routes({ userId: newUserId })).toEqual(['POST /v2/users']);
    expect(routes({ transactionId })).toEqual([
      'POST /v2/transactions',
      'GET /v2/transactions/:transactionId',
    ]);
    // The read names the transaction in its path; its user comes from the stored transaction.
    expect(routes({ userId })).toEqual(['POST /v2/transactions', 'GET /v2/transactions/:transactionId']);
    // A path value that is no transaction's ID names no user.
    await call('GET', '/v2/transactions/constructor');
    expect(mock.journal.entries({ type: 'request' }).at(-1)).toMatchObject({
      transactionId: 'constructor',
      userId: undefined,
    });
  });

  it('says why a request was refused, in a header and in the journal, with the body unchanged', async () => {
    const mock = createMockService({ seed: 'explain' });
    const call = api(mock);
    const missing = await call('GET', '/v2/transactions/txn_missing');
    expect(missing.status).toBe(404);
    const why = missing.headers.get('x-mock-explain');
    expect(why).toMatch(/^[A-Z_]+: /);
    expect(missing.body).not.toHaveProperty('explain');
    expect(mock.journal.entries({ type: 'request' }).at(-1)).toMatchObject({ status: 404, explain: why });

    const unauthorised = await call('GET', '/v2/account', undefined, { authorization: 'Bearer nope' });
    expect(unauthorised.status).toBe(401);
    expect(unauthorised.headers.get('x-mock-explain')).toMatch(/^UNAUTHORIZED: .*spec 5/);
  });

  it('is served over HTTP as GET /__mock/journal, filtered by the query', async () => {
    const mock = createMockService({ seed: 'http' });
    const call = api(mock);
    await call('GET', '/v2/account');
    await mock.helpers.clock.advance('1m');
    const url = `${mock.baseUrl}/__mock/journal?type=request&since=0`;
    const answer = await serveHelper(mock, new Request(url), '/__mock/journal');
    expect(answer.status).toBe(200);
    const body = await answer.json();
    expect(body.data).toEqual(mock.journal.entries({ type: 'request' }));
    expect(body.data).toHaveLength(1);
    const refused = await serveHelper(
      mock,
      new Request(`${mock.baseUrl}/__mock/journal?type=nope`),
      '/__mock/journal',
    );
    expect(refused.status).toBe(400);
    expect((await refused.json()).field).toBe('type');
  });
});

describe("the journal's byte budget", () => {
  /**
   * The journal grows with traffic, so it has a byte budget: it keeps a window of the newest entries within it
   * and says how many it let go. (The replay recording's budget: test/mock/observe/recorder.test.ts; the standalone
   * server under a 128 MB heap and a 5-minute soak: test/slow/heap-128.test.ts and soak.test.ts.)
   */

  describe('the journal', () => {
    it('keeps its entries within its byte budget and says how many it let go', async () => {
      const mock = createMockService({ seed: 'budget', budgets: { journalBytes: 100_000 } });
      for (let i = 0; i < 200; i++) await postNothing(mock, 5_000);
      const { journal } = mock;
      expect(journal.budgetBytes).toBe(100_000);
      expect(journal.bytes).toBeLessThanOrEqual(100_000);
      expect(journal.dropped).toBeGreaterThan(0);
      const entries = journal.entries();
      expect(entries.length).toBe(journal.size);
      // Sequence numbers run on with no gap: the window starts right after the entries let go.
      expect(entries[0]?.seq).toBe(journal.dropped + 1);
      expect(entries.at(-1)?.seq).toBe(journal.dropped + journal.size);
      // Each entry keeps only the start of a long body.
      expect(entries.at(-1)).toMatchObject({ type: 'request', status: 400, requestBodyCut: true });
    });

    it('has the defaults, and a budget too small to be meant is refused', () => {
      const mock = createMockService();
      expect(mock.journal.budgetBytes).toBe(JOURNAL_BUDGET_BYTES);
      expect(mock.journal.dropped).toBe(0);
      expect(RECORDING_BUDGET_BYTES).toBe(16 * 1024 * 1024);
      expect(() => createMockService({ budgets: { journalBytes: 16 } })).toThrow(
        /budgets\.journalBytes must be a number of bytes of at least 65536, got 16/,
      );
      expect(() => createMockService({ budgets: { recordingBytes: Number.NaN } })).toThrow(RangeError);
    });
  });
});

describe("the journal's bodies", () => {
  describe('the journal keeps each exchange: request body, answer body, webhook signed body', () => {
    it('records the body sent, the answer and the query of a request, each within the body cap', async () => {
      const mock = createMockService({ seed: 'bodies' });
      const send = (method: string, path: string, body?: string) =>
        mock.dispatch(
          new Request(`${mock.baseUrl}${path}`, {
            method,
            headers: { authorization: `Bearer ${mock.sandboxKey}`, 'content-type': 'application/json' },
            body,
          }),
        );
      const sent = JSON.stringify({
        mobile: '9876543210',
        email: 'asha@example.com',
        name: 'Asha <b>Rao</b>',
      });
      const created = await send('POST', '/v2/users', sent);
      const answer = await created?.text();
      await send('GET', '/v2/webhooks?limit=2');
      const [post, list] = mock.journal.entries({ type: 'request' });
      expect(post).toMatchObject({ requestBody: sent, responseBody: answer, status: 201 });
      expect(post?.type === 'request' && post.query).toBeUndefined();
      expect(list).toMatchObject({ path: '/v2/webhooks', query: '?limit=2' });
      expect(list?.type === 'request' && list.requestBody).toBeUndefined();
      expect(JSON.parse(String(list?.type === 'request' && list.responseBody))).toMatchObject({
        success: true,
      });

      // A body longer than the cap keeps its start and says it was cut; the answer is still whole on the wire.
      const long = JSON.stringify({ mobile: '9876543211', name: 'x'.repeat(JOURNAL_BODY_LIMIT * 2) });
      const wire = (await (await send('POST', '/v2/users', long))?.text()) ?? '';
      const last = mock.journal.entries({ type: 'request' }).at(-1);
      expect(last).toMatchObject({ requestBody: long.slice(0, JOURNAL_BODY_LIMIT), requestBodyCut: true });
      expect(last?.type === 'request' && last.responseBody).toBe(wire.slice(0, JOURNAL_BODY_LIMIT));
    });

    it('records the signed body of every webhook attempt', async () => {
      const mock = createMockService({ seed: 'bodies' });
      const bodies: string[] = [];
      mock.helpers.webhooks.useFetch(async (_url, init) => {
        bodies.push(String(init.body));
        return new Response(null, { status: bodies.length === 1 ? 500 : 200 });
      });
      mock.helpers.accounts.update({ webhookUrl: 'https://receiver.example/hooks' });
      await mock.dispatch(
        new Request(`${mock.baseUrl}/v2/users`, {
          method: 'POST',
          headers: { authorization: `Bearer ${mock.sandboxKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ mobile: '9876543210' }),
        }),
      );
      await mock.clock.advance('1m');
      await mock.helpers.webhooks.settle();
      await mock.clock.advance('5m');
      await mock.helpers.webhooks.settle();
      const attempts = mock.journal.entries({ type: 'webhook' });
      expect(attempts.length).toBeGreaterThanOrEqual(2);
      expect(attempts.map((a) => a.type === 'webhook' && a.body)).toEqual(bodies.slice(0, attempts.length));
      expect(attempts[0]).toMatchObject({ attempt: 1, ok: false, status: 500 });
    });

    it('caps a body at JOURNAL_BODY_LIMIT characters', () => {
      expect(capBody('{}')).toEqual({ text: '{}', cut: false });
      const at = 'a'.repeat(JOURNAL_BODY_LIMIT);
      expect(capBody(at)).toEqual({ text: at, cut: false });
      expect(capBody(`${at}b`)).toEqual({ text: at, cut: true });
    });
  });
});
