/**
 * The client hands `mock.fetch` its requests as plain values (method, URL, headers, body) instead of a second fetch
 * `Request`: the mock must answer them exactly as it answers the same requests made as `Request`s, with the real
 * key, and the client must fall back to a `Request` wherever the plain form could lose something.
 */
import { describe, expect, it } from 'vitest';
import { createMockService, type MockService } from '../../mock/index.js';
import { APIUserAbortError, NotFoundError } from '../../src/index.js';
import { PLAIN_FETCH, type PlainCall, plainFetchOf } from '../../src/shared/plain-fetch.js';

const KEYS = ['5b0c6f1e-9f0a-4f57-8d2c-4f7f4a1b2c3d', '7d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6'];

/** `mock.fetch` with its plain form counted; `onCall` runs once the call is handed over. */
function counted(mock: MockService, onCall = () => {}): { fetch: typeof fetch; calls: PlainCall[] } {
  const plain = plainFetchOf(mock.fetch);
  if (!plain) throw new Error('mock.fetch has no plain form');
  const calls: PlainCall[] = [];
  const fetch = Object.defineProperty(
    (input: RequestInfo | URL, init?: RequestInit) => mock.fetch(input, init),
    PLAIN_FETCH,
    {
      value: (call: PlainCall) => {
        calls.push(call);
        const answer = plain(call);
        onCall();
        return answer;
      },
    },
  );
  return { fetch, calls };
}

/** A flow with a body, a query, an error and an idempotent replay; what the mock kept of it. */
async function flow(fetch: (mock: MockService) => typeof globalThis.fetch) {
  const mock = createMockService({ seed: 'plain-fetch' });
  const client = mock.createClient({ fetch: fetch(mock) });
  const data: unknown[] = [];
  const [first = '', second = ''] = KEYS;
  data.push(await client.users.create({ mobile: '9876543210' }, { idempotencyKey: first }));
  const replay = await client.users
    .create({ mobile: '9876543210' }, { idempotencyKey: first })
    .withResponse();
  data.push({
    data: replay.data,
    status: replay.response.status,
    replayed: replay.response.idempotentReplayed,
  });
  data.push(await client.account.retrieve());
  data.push(await client.account.listActivity({ limit: 2 }));
  const missing = await client.transactions.retrieve('txn_missing').catch((error: unknown) => error);
  data.push(missing instanceof Error ? { error: missing.name, message: missing.message } : missing);
  data.push(await client.users.create({ mobile: '9876543211' }, { idempotencyKey: second }));
  return { data, bundle: mock.bundle(), journal: mock.journal.entries() };
}

describe("the client's plain calls to mock.fetch", () => {
  it('are answered, recorded and journalled exactly as the same calls made as fetch Requests', async () => {
    const viaPlain = await flow((mock) => mock.fetch);
    // A wrapper has no plain form: the client sends it Requests.
    const viaRequests = await flow((mock) => (input, init) => mock.fetch(input, init));
    expect(viaPlain).toEqual(viaRequests);
    expect(viaPlain.data[4]).toMatchObject({ error: NotFoundError.name });
    expect(viaPlain.bundle.steps).toHaveLength(6);
  });

  it('carry the real key, the body as sent and the absolute URL', async () => {
    const mock = createMockService({ seed: 'plain-fetch' });
    const { fetch, calls } = counted(mock);
    const client = mock.createClient({ fetch });
    await client.users.create({ mobile: '9876543210' }, { idempotencyKey: KEYS[0] });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      method: 'POST',
      url: `${mock.baseUrl}/v2/users`,
      headers: {
        authorization: `Bearer ${mock.sandboxKey}`,
        'content-type': 'application/json',
        'idempotency-key': KEYS[0],
      },
      body: JSON.stringify({ mobile: '9876543210' }),
    });
  });

  it('are aborted by the caller while the mock answers, as a Request would be', async () => {
    const mock = createMockService({ seed: 'plain-fetch' });
    const controller = new AbortController();
    const { fetch, calls } = counted(mock, () => controller.abort(new Error('stop')));
    const client = mock.createClient({ fetch, maxRetries: 0 });
    await expect(client.account.retrieve({ signal: controller.signal })).rejects.toBeInstanceOf(
      APIUserAbortError,
    );
    expect(calls).toHaveLength(1);
    expect(calls[0]?.signal.aborted).toBe(true);
  });

  it('give way to a Request when the client has fetch options of its own', async () => {
    const mock = createMockService({ seed: 'plain-fetch' });
    const { fetch, calls } = counted(mock);
    const client = mock.createClient({ fetch, fetchOptions: { cache: 'no-store' } });
    await expect(client.account.retrieve()).resolves.toMatchObject({ id: mock.accountId });
    expect(calls).toHaveLength(0);
  });
});
