// The conventions partner engineers bring from stripe-node and openai-node (docs/coming-from-stripe-or-openai.md).
import { WebhookVerificationError as EntryWebhookVerificationError, signWebhook } from 'inr-payouts/webhooks';
import { describe, expect, it, vi } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  ConfigurationError,
  type FetchOptions,
  Page,
  PayoutClient,
  PayoutError,
  WebhookVerificationError,
} from '../../src/index.js';
import { PayoutError as SharedPayoutError } from '../../src/shared/payout-error.js';
import { account, webhookEvent } from '../support/fixtures.js';
import { BASE, KEY, makeClient, ok, route, useServer } from '../support/msw.js';

useServer();

const secret = 'whsec_peer';
const payload = {
  id: 'evt_1',
  event: 'user.created',
  timestamp: '2025-01-01T00:00:00.000Z',
  partnerId: 'p_1',
  data: { userId: 'usr_1', createdAt: '2025-01-01T00:00:00.000Z' },
} as const;

type Asked = Pick<Request, 'keepalive' | 'referrerPolicy'>;
// What fetch is asked for: the Request's own options and what `init` adds. Read from the Request fetch is given,
// not a copy: Node 24's `new Request(request)` drops `referrerPolicy`.
function asked(input: RequestInfo | URL, init?: RequestInit): Asked {
  const request = input instanceof Request ? input : new Request(input);
  return {
    keepalive: init?.keepalive ?? request.keepalive,
    referrerPolicy: init?.referrerPolicy ?? request.referrerPolicy,
  };
}

describe('client.webhooks.unwrap', () => {
  it('verifies with the webhookSecret option, from fetch Headers or node headers', async () => {
    const { body, signature } = signWebhook({ payload, secret });
    const client = makeClient({ webhookSecret: secret });
    expect((await client.webhooks.unwrap(body, new Headers({ 'X-Service-Signature': signature }))).id).toBe(
      'evt_1',
    );
    expect(
      (await client.webhooks.unwrap(Buffer.from(body), { 'x-service-signature': signature })).event,
    ).toBe('user.created');
  });

  it('falls back to INR_PAYOUTS_WEBHOOK_SECRET, and a per-call secret wins', async () => {
    const { body, signature } = signWebhook({ payload, secret });
    vi.stubEnv('INR_PAYOUTS_WEBHOOK_SECRET', secret);
    try {
      expect((await makeClient().webhooks.unwrap(body, { 'x-service-signature': signature })).id).toBe(
        'evt_1',
      );
    } finally {
      vi.unstubAllEnvs();
    }
    const other = makeClient({ webhookSecret: 'whsec_other' });
    await expect(other.webhooks.unwrap(body, { 'x-service-signature': signature })).rejects.toMatchObject({
      reason: 'no_matching_signature',
    });
    expect((await other.webhooks.unwrap(body, { 'x-service-signature': signature }, { secret })).id).toBe(
      'evt_1',
    );
  });

  it('rejects a tampered body or a missing secret with a WebhookVerificationError, a PayoutError', async () => {
    const { body, signature } = signWebhook({ payload, secret });
    const error = await makeClient({ webhookSecret: secret })
      .webhooks.unwrap(body.replace('usr_1', 'usr_2'), { 'x-service-signature': signature })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect(error).toBeInstanceOf(PayoutError);
    const missing = await makeClient()
      .webhooks.unwrap(body, { 'x-service-signature': signature })
      .catch((e: unknown) => e);
    expect(missing).toMatchObject({ reason: 'missing_secret' });
  });
});

describe('list methods return page promises that are async iterables', () => {
  const all = Array.from({ length: 5 }, (_, i) => webhookEvent(`evt_${i + 1}`));
  const paged = () =>
    route('get', '/v2/webhooks', (request) => {
      const page = Number(request.query.page ?? 1);
      return ok(all.slice((page - 1) * 2, page * 2), {
        pagination: { page, limit: 2, total: all.length, totalPages: 3 },
      });
    });

  it('awaits to a Page with data, pagination, hasNextPage() and getNextPage()', async () => {
    paged();
    const first = await makeClient().webhooks.list({ limit: 2 });
    expect(first).toBeInstanceOf(Page);
    expect(first.data.map((e) => e.id)).toEqual(['evt_1', 'evt_2']);
    expect(first.pagination).toEqual({ page: 1, limit: 2, total: 5, totalPages: 3 });
    expect(first.hasNextPage()).toBe(true);
    const third = await (await first.getNextPage()).getNextPage();
    expect(third.data.map((e) => e.id)).toEqual(['evt_5']);
    expect(third.hasNextPage()).toBe(false);
  });

  it('iterates every item of every page with for await, and stops when the caller breaks', async () => {
    const seen = paged();
    const ids: string[] = [];
    for await (const event of makeClient().webhooks.list({ limit: 2 })) ids.push(event.id);
    expect(ids).toEqual(['evt_1', 'evt_2', 'evt_3', 'evt_4', 'evt_5']);
    expect(seen).toHaveLength(3);
    for await (const event of makeClient().webhooks.list({ limit: 2 })) if (event.id === 'evt_1') break;
    expect(seen).toHaveLength(4);
  });
});

describe('raw responses', () => {
  it('withResponse() gives the fetch Response with the client facts; asResponse() a readable copy', async () => {
    route('get', '/v2/account', ok(account));
    const client = makeClient();
    const { data, response } = await client.account.retrieve().withResponse();
    expect(response).toBeInstanceOf(Response);
    expect(data.id).toBe(account.id);
    expect(response).toMatchObject({ status: 200, attempts: 1, idempotentReplayed: false });
    const raw = await client.account.retrieve().asResponse();
    expect(raw).toBeInstanceOf(Response);
    expect(raw.attempts).toBe(1);
    expect(raw.headers.get('content-type')).toMatch(/json/);
    expect(await raw.json()).toEqual({ success: true, data: account });
  });
});

describe('one error tree', () => {
  it('connection, time-out and abort errors are APIErrors with status undefined', async () => {
    const dropped = makeClient({
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    const connection = await dropped.account.retrieve().catch((e: unknown) => e);
    expect(connection).toBeInstanceOf(APIConnectionError);
    expect(connection).toBeInstanceOf(APIError);
    expect(connection).toMatchObject({ status: undefined, code: 'CONNECTION_ERROR' });
    const timeout = new APITimeoutError('GET /v2/account', 10);
    expect(timeout).toBeInstanceOf(APIConnectionTimeoutError);
    expect(timeout).toBeInstanceOf(APIError);
    expect(timeout).toMatchObject({ status: undefined, code: 'TIMEOUT' });
    const aborted = await makeClient()
      .account.retrieve({ signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect(aborted).toBeInstanceOf(APIUserAbortError);
    expect(aborted).toMatchObject({ status: undefined, code: 'ABORTED' });
  });

  it('the webhooks entry error is a PayoutError, and the class is shared with the client entry', () => {
    expect(new EntryWebhookVerificationError('missing_header', 'x')).toBeInstanceOf(PayoutError);
    expect(EntryWebhookVerificationError).toBe(WebhookVerificationError);
  });

  it('instanceof PayoutError holds for an error of another copy of the package', () => {
    // What a second copy (the CommonJS build beside the ESM one, or the webhooks bundle) makes: an error whose
    // prototype carries the shared brand but is not this copy's class.
    const foreign = Object.create(SharedPayoutError.prototype, {}) as object;
    const stranger = Object.setPrototypeOf(
      new Error('x'),
      Object.create(Error.prototype, {
        [Symbol.for('inr-payouts.PayoutError')]: { value: true },
      }),
    ) as Error;
    expect(foreign).toBeInstanceOf(PayoutError);
    expect(stranger).toBeInstanceOf(PayoutError);
    expect(new Error('plain')).not.toBeInstanceOf(PayoutError);
    expect(stranger).not.toBeInstanceOf(APIError);
    const webhookStranger = Object.create(
      Object.create(SharedPayoutError.prototype, {
        [Symbol.for('inr-payouts.WebhookVerificationError')]: { value: true },
      }),
    ) as object;
    expect(webhookStranger).toBeInstanceOf(WebhookVerificationError);
    expect(webhookStranger).toBeInstanceOf(PayoutError);
    expect(new Error('plain')).not.toBeInstanceOf(WebhookVerificationError);
  });

  it('every error class is a static of PayoutClient', () => {
    expect(PayoutClient.APIError).toBe(APIError);
    expect(PayoutClient.APIConnectionTimeoutError).toBe(APITimeoutError);
    expect(PayoutClient.WebhookVerificationError).toBe(WebhookVerificationError);
    expect(PayoutClient.ConfigurationError).toBe(ConfigurationError);
  });
});

describe('client ergonomics', () => {
  it('logLevel filters the lines; INR_PAYOUTS_LOG sets it; a bad level is refused', async () => {
    route('get', '/v2/account', ok(account));
    const lines: string[] = [];
    const logger = { debug: (m: string) => lines.push(m), warn: (m: string) => lines.push(m) };
    await makeClient({ logger, logLevel: 'warn' }).account.retrieve();
    expect(lines).toEqual([]);
    await makeClient({ logger }).account.retrieve();
    expect(lines).toEqual(['inr-payouts: GET /v2/account -> 200']);
    vi.stubEnv('INR_PAYOUTS_LOG', 'off');
    try {
      await makeClient({ logger }).account.retrieve();
    } finally {
      vi.unstubAllEnvs();
    }
    expect(lines).toHaveLength(1);
    expect(() => makeClient({ logLevel: 'loud' as 'debug' })).toThrow(ConfigurationError);
  });

  it('withOptions() derives a client and leaves the original unchanged', async () => {
    const seen = route('get', '/v2/account', ok(account));
    const base = makeClient({ defaultHeaders: { 'X-Team': 'payouts' } });
    const derived = base.withOptions({ defaultHeaders: { 'X-Team': 'risk' } });
    await base.account.retrieve();
    await derived.account.retrieve();
    expect(seen.map((s) => s.headers.get('x-team'))).toEqual(['payouts', 'risk']);
  });

  it('fetchOptions reach every fetch, the call’s own over the client’s', async () => {
    // What fetch is asked for: ky's request and what `init` adds to it.
    const inits: Asked[] = [];
    const spy: typeof fetch = async (input, init) => {
      inits.push(asked(input, init));
      return fetch(input, init);
    };
    route('get', '/v2/account', ok(account));
    const client = makeClient({
      fetch: spy,
      fetchOptions: { keepalive: true, referrerPolicy: 'no-referrer' },
    });
    await client.account.retrieve();
    await client.account.retrieve({ fetchOptions: { referrerPolicy: 'origin' } });
    expect(inits.map((i) => [i.keepalive, i.referrerPolicy])).toEqual([
      [true, 'no-referrer'],
      [true, 'origin'],
    ]);
  });

  it('fetchOptions reach the global fetch too, and never replace the headers the call sends', async () => {
    const seen = route('get', '/v2/account', ok(account));
    const wrapped = globalThis.fetch;
    const inits: Asked[] = [];
    globalThis.fetch = (input, init) => {
      inits.push(asked(input, init));
      return wrapped(input, init);
    };
    try {
      // `headers` is not a fetch option the client takes; a caller without types can still pass it.
      const fetchOptions = { referrerPolicy: 'no-referrer', headers: { authorization: 'Bearer other' } };
      await makeClient({ fetchOptions: fetchOptions as FetchOptions }).account.retrieve();
    } finally {
      globalThis.fetch = wrapped;
    }
    expect(inits.map((init) => init.referrerPolicy)).toEqual(['no-referrer']);
    expect(seen[0]?.headers.get('authorization')).toBe(`Bearer ${KEY}`);
  });

  it('accepts baseURL as an alias of baseUrl', async () => {
    route('get', '/v2/account', ok(account));
    const client = new PayoutClient({ apiKey: KEY, baseURL: BASE, maxRetries: 0 });
    expect((await client.account.retrieve()).id).toBe(account.id);
  });
});
