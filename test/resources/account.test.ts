import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../../src/index.js';
import { account } from '../support/fixtures.js';
import { fail, ok, only, route, useClient } from '../support/msw.js';

const client = useClient();

describe('account', () => {
  it('retrieve: GET /v2/account, no body, reads the account', async () => {
    const seen = route('get', '/v2/account', ok(account));
    const result = await client.account.retrieve();
    const request = only(seen, false);
    expect(request).toMatchObject({ method: 'GET', path: '/v2/account', query: {}, body: undefined });
    expect(result).toEqual(account);
    expect(result.limits.rateLimit).toBe(100);
  });

  it('updateDeveloperFee: PUT with enabled and percent, reads the setting and the message', async () => {
    const seen = route(
      'put',
      '/v2/account/developer-fee',
      ok({ enabled: true, percent: 0.015 }, { message: 'Developer fee set to 1.5%' }),
    );
    const { data, message, response } = await client.account
      .updateDeveloperFee({ enabled: true, percent: 0.015 })
      .withResponse();
    const request = only(seen, true);
    expect(request).toMatchObject({
      method: 'PUT',
      path: '/v2/account/developer-fee',
      body: { enabled: true, percent: 0.015 },
    });
    expect(data).toEqual({ enabled: true, percent: 0.015 });
    expect(message).toBe('Developer fee set to 1.5%');
    expect(response.idempotencyKey).toBe(request.headers.get('idempotency-key'));
  });

  it('updateDeveloperFee: accepts both ends of the range (0 and 0.05)', async () => {
    const seen = route('put', '/v2/account/developer-fee', (s) => ok(s.body));
    await client.account.updateDeveloperFee({ enabled: false, percent: 0 });
    await client.account.updateDeveloperFee({ enabled: true, percent: 0.05 });
    expect(seen.map((s) => s.body)).toEqual([
      { enabled: false, percent: 0 },
      { enabled: true, percent: 0.05 },
    ]);
  });

  it("updateDeveloperFee: the service's 400 for an out-of-range percent is a BadRequestError", async () => {
    route(
      'put',
      '/v2/account/developer-fee',
      fail(400, {
        error: 'Bad Request',
        message: 'percent must be between 0 and 0.05',
        code: 'VALIDATION_ERROR',
      }),
    );
    const error = await client.account
      .updateDeveloperFee({ enabled: true, percent: 0.05 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
  });

  it('listActivity: GET with limit in the query, reads items with an explicit null payoutAmountInr', async () => {
    const items = [
      {
        id: 'txn_2',
        status: 'deposit_pending',
        depositAmount: '250.00',
        depositAsset: 'USDT',
        depositNetwork: 'solana',
        payoutAmountInr: null,
        payoutStatus: 'pending',
        user: { id: 'usr_1', name: 'Asha Rao' },
        createdAt: '2024-01-15T10:30:00Z',
        updatedAt: '2024-01-15T10:31:00Z',
      },
      {
        id: 'txn_1',
        status: 'completed',
        depositAmount: '100.00',
        depositAsset: 'USDC',
        depositNetwork: 'polygon',
        payoutAmountInr: '8325.00',
        payoutStatus: 'completed',
        user: { id: 'usr_1', name: 'Asha Rao' },
        createdAt: '2024-01-14T10:30:00Z',
        updatedAt: '2024-01-14T10:45:00Z',
      },
    ];
    const seen = route('get', '/v2/account/activity', ok(items));
    const result = await client.account.listActivity({ limit: 50 });
    expect(only(seen, false)).toMatchObject({
      method: 'GET',
      path: '/v2/account/activity',
      query: { limit: '50' },
    });
    expect(result).toEqual(items);
    expect(result[0]?.payoutAmountInr).toBeNull();
  });

  it('listActivity: without a limit sends no query (the service defaults to 10)', async () => {
    const seen = route('get', '/v2/account/activity', ok([]));
    expect(await client.account.listActivity()).toEqual([]);
    expect(only(seen, false).query).toEqual({});
  });

  it('retrieveCredit: GET /v2/account/credit (assumed), reads the three decimal figures', async () => {
    const credit = {
      prefundedEnabled: true,
      creditLimitUsd: '10000.00',
      outstandingUsd: '2500.00',
      availableUsd: '7500.00',
    };
    const seen = route('get', '/v2/account/credit', ok(credit));
    expect(await client.account.retrieveCredit()).toEqual(credit);
    expect(only(seen, false)).toMatchObject({ method: 'GET', path: '/v2/account/credit', body: undefined });
  });
});
