import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Exchange } from '../../../mock/engine/exchange.js';
import type { StreamRecord } from '../../../mock/engine/stream.js';
import { createMockService, mockServiceWithInternals } from '../../../mock/service.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('one request context and one stream of records', () => {
  it('reads a keyed create’s body once and parses it once, for validation, the key and the journal', async () => {
    const mock = createMockService({ seed: 'exchange' });
    const body = JSON.stringify({ mobile: '9876543210', email: 'asha@example.com' });
    const request = new Request(`${mock.baseUrl}/v2/users`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${mock.sandboxKey}`,
        'content-type': 'application/json',
        'idempotency-key': 'key-1',
      },
      body,
    });
    const reads = vi.spyOn(Request.prototype, 'arrayBuffer');
    const parse = vi.spyOn(JSON, 'parse');
    const clones = vi.spyOn(Response.prototype, 'clone');
    const answer = await mock.dispatch(request);
    expect(answer?.status).toBe(201);
    expect(reads).toHaveBeenCalledTimes(1);
    expect(parse.mock.calls.filter(([text]) => text === body)).toHaveLength(1);
    // A JSON answer's text is at hand for every subscriber: nothing copies the answer.
    expect(clones).not.toHaveBeenCalled();
    const [entry] = mock.journal.entries({ type: 'request' });
    expect(entry).toMatchObject({ requestBody: body, idempotencyKey: 'key-1', replayed: false, status: 201 });
    expect(entry?.userId).toMatch(/^usr_/);
    expect(mock.bundle().steps[0]).toMatchObject({ type: 'request', path: '/v2/users', body });
  });

  it('emits each exchange when it arrives and when it is answered, and each transition, in order', async () => {
    const mock = mockServiceWithInternals({ seed: 'stream', baseUrl: 'https://stream.test/api' });
    const seen: StreamRecord[] = [];
    const stop = mock.stream.subscribe((record) => {
      if (record.type === 'transition' || record.exchange.url.startsWith(mock.baseUrl)) seen.push(record);
    });
    try {
      const sent = await mock.dispatch(
        new Request(`${mock.baseUrl}/v2/account?x=1&x=2`, {
          headers: { authorization: `Bearer ${mock.sandboxKey}` },
        }),
      );
      expect(seen.map((r) => r.type)).toEqual(['received', 'answered']);
      const exchange = (seen[1] as { exchange: Exchange }).exchange;
      expect(seen[0]).toMatchObject({ exchange });
      expect(exchange).toMatchObject({ method: 'GET', path: '/v2/account', query: { x: '1' } });
      expect(exchange.answer?.response).toBe(sent);
      expect(exchange.route?.path).toBe('/v2/account');
      expect(JSON.parse(exchange.answer?.text ?? '')).toEqual(exchange.answer?.body);
      // A transition made while serving a request comes between its two records.
      const post = (path: string, body?: unknown) =>
        mock.dispatch(
          new Request(`${mock.baseUrl}${path}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${mock.sandboxKey}`, 'content-type': 'application/json' },
            body: body === undefined ? undefined : JSON.stringify(body),
          }),
        );
      const created = (await (await post('/v2/users', { mobile: '9876543210' }))?.json()) as {
        data: { userId: string };
      };
      const { userId } = created.data;
      await post(`/v2/users/${userId}/verify/mobile/send`);
      const { otp } = mock.helpers.otp.read({ userId, channel: 'mobile' });
      seen.length = 0;
      await post(`/v2/users/${userId}/verify/mobile/confirm`, { otp });
      expect(seen.map((r) => r.type)).toEqual(['received', 'transition', 'answered']);
      expect(seen[1]).toMatchObject({ transition: { resource: 'kyc-step', id: 'mobile', userId } });
      // A request outside the base URL is no exchange.
      seen.length = 0;
      expect(await mock.dispatch(new Request('https://stream.test/apiary/v2/account'))).toBeUndefined();
      expect(seen).toEqual([]);
    } finally {
      stop();
    }
  });
});
