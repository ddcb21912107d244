/**
 * `mock.override(operationId, resolver)`: a per-test answer for one operation, typed, falling back to the
 * simulation when the resolver returns nothing.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../mock/contract/endpoints.js';
import { createMockService } from '../../mock/index.js';
import { OPERATION_IDS } from '../../mock/overrides.js';
import { PayoutClient } from '../../src/index.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

function setup() {
  const mock = createMockService();
  server.resetHandlers(...mock.handlers);
  const client = new PayoutClient({ apiKey: mock.sandboxKey, baseUrl: mock.baseUrl, maxRetries: 0 });
  return { mock, client };
}

describe('mock.override', () => {
  it('answers one operation with typed data; returning nothing falls back to the simulation', async () => {
    const { mock, client } = setup();
    const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
    mock.override('transactions.create', ({ body }) => {
      if (body.amount !== '4242') return undefined;
      return {
        status: 201,
        data: {
          transactionId: 'txn_override',
          status: 'created',
          depositAddress: '0x000000000000000000000000000000000000beef',
          depositNetwork: body.network,
          depositAsset: body.asset,
          expectedAmount: body.amount,
          quote: { exchangeRate: 84, feePercent: 0, feeInr: '0', grossInr: '0', netInr: '0' },
          expiresAt: '2025-01-01T01:00:00.000Z',
        },
      };
    });
    const overridden = await client.transactions.create({
      userId,
      amount: '4242',
      asset: 'USDT',
      network: 'polygon',
    });
    expect(overridden.transactionId).toBe('txn_override');
    const simulated = await client.transactions.create({
      userId,
      amount: '100',
      asset: 'USDT',
      network: 'polygon',
    });
    expect(simulated.transactionId).not.toBe('txn_override');
    expect(mock.state.transactions.byId[simulated.transactionId]).toBeDefined();
  });

  it('stops when told, one or all', async () => {
    const { mock, client } = setup();
    let calls = 0;
    const stop = mock.override('account.retrieveCredit', () => {
      calls += 1;
      return {
        data: { prefundedEnabled: true, creditLimitUsd: '500', outstandingUsd: '0', availableUsd: '500' },
      };
    });
    expect((await client.account.retrieveCredit()).creditLimitUsd).toBe('500');
    stop();
    expect((await client.account.retrieveCredit()).creditLimitUsd).not.toBe('500');
    expect(calls).toBe(1);
    mock.override('users.create', ({ body }) => ({
      status: 201,
      data: {
        userId: 'usr_override',
        mobile: body.mobile,
        mobileVerified: false,
        emailVerified: false,
        createdAt: '2025-01-01T00:00:00.000Z',
      },
    }));
    expect((await client.users.create({ mobile: '9876543210' })).userId).toBe('usr_override');
    mock.clearOverrides();
    expect((await client.users.create({ mobile: '9876543210' })).mobile).toBe('+919876543210');
  });

  it('knows every operation of the document, and refuses an unknown one', () => {
    const { mock } = setup();
    expect([...OPERATION_IDS].sort()).toEqual(
      Object.values(OPERATIONS)
        .map((op) => op.operationId)
        .sort(),
    );
    expect(() => mock.override('nothing.here' as 'users.create', () => undefined)).toThrow(/No operation/);
  });
});
