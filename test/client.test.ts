import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import {
  ConfigurationError,
  type FetchOptions,
  PayoutClient,
  ResponseValidationError,
  ValidationError,
} from '../src/index.js';
import { account } from './support/fixtures.js';
import { BASE, KEY, makeClient, ok, only, requests, route, useServer } from './support/msw.js';

useServer();
const client = makeClient();

describe('PayoutClient', () => {
  it('has one property per resource', () => {
    const c = new PayoutClient({ apiKey: KEY, baseUrl: BASE });
    expect(Object.keys(c).sort()).toEqual(['account', 'kyc', 'transactions', 'users', 'webhooks']);
    expect(Object.keys(c.kyc)).toEqual(
      expect.arrayContaining([
        'aadhaar',
        'bank',
        'declaration',
        'digilocker',
        'document',
        'face',
        'pan',
        'passport',
        'profile',
        'upi',
      ]),
    );
    expect(Object.keys(c.users)).toEqual(expect.arrayContaining(['mobile', 'email']));
  });
});

describe('client.request (typed raw request)', () => {
  it('sends any path with query and body, with the key and an Idempotency-Key, and returns data', async () => {
    const seen = route('post', '/v2/users/:id/kyc/profile', ok({ profileId: 'prof_1' }));
    const result = await client.request<{ profileId: string }>({
      method: 'POST',
      path: '/v2/users/usr_1/kyc/profile',
      query: { dryRun: true },
      body: { anything: 'goes' },
    });
    expect(only(seen, true)).toMatchObject({
      method: 'POST',
      path: '/v2/users/usr_1/kyc/profile',
      query: { dryRun: 'true' },
      body: { anything: 'goes' },
    });
    expect(result.profileId).toBe('prof_1');
  });

  it('validates data with a dataSchema when given', async () => {
    route('get', '/v2/account/credit', ok({ availableUsd: 5 }));
    const dataSchema = z.object({ availableUsd: z.string() });
    await expect(
      client.request({ method: 'GET', path: '/v2/account/credit', dataSchema }),
    ).rejects.toBeInstanceOf(ResponseValidationError);
  });

  it('GET carries no Idempotency-Key', async () => {
    const seen = route('get', '/v2/account', ok({}));
    await client.request({ method: 'GET', path: '/v2/account' });
    only(seen, false);
  });

  it('refuses a full URL (the key would go to another host) and sends nothing', async () => {
    await expect(
      client.request({ method: 'GET', path: 'https://evil.test/v2/account' }),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(client.request({ method: 'GET', path: '//evil.test/v2' })).rejects.toBeInstanceOf(
      ValidationError,
    );
    expect(requests).toHaveLength(0);
  });
});

describe('client ergonomics, through the shared msw server', () => {
  // The conventions partner engineers bring from stripe-node and openai-node (docs/coming-from-stripe-or-openai.md).

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
});
