/**
 * The work a request makes due at once (attempt 1 of the webhook an answer emitted) runs before the answer goes
 * back, the same way whichever door the request came in by: `mock.fetch`, msw's handlers, the standalone server.
 * No clock move and no `settle()` is needed for the receiver to have been called.
 */
import { getResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { createMockService, type MockService } from '../../../mock/index.js';
import { mswHandlers } from '../../../mock/msw/index.js';
import { startMockServer } from '../../../mock/server/server.js';

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

  it('the standalone server: the same', async () => {
    const server = await startMockServer({ port: 0 });
    try {
      const received = receiver(server.service);
      expect((await fetch(createUser(server.service, server.url))).status).toBe(201);
      expect(received).toEqual(['user.created']);
    } finally {
      await server.close();
    }
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
