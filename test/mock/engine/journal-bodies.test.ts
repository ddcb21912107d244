import { describe, expect, it } from 'vitest';
import { capBody, JOURNAL_BODY_LIMIT } from '../../../mock/engine/journal.js';
import { createMockService } from '../../../mock/service.js';

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
    const sent = JSON.stringify({ mobile: '9876543210', email: 'asha@example.com', name: 'Asha <b>Rao</b>' });
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
