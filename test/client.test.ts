import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { PayoutClient, ResponseValidationError, ValidationError } from '../src/index.js';
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
