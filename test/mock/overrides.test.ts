/**
 * `mock.override(operationId, resolver)`: a per-test answer for one operation, typed, falling back to the
 * simulation when the resolver returns nothing.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockService, type OperationId, type OverrideResolver } from '../../mock/index.js';
import { mswHandlers } from '../../mock/msw/index.js';
import document from '../../openapi.json' with { type: 'json' };
import { PayoutClient } from '../../src/index.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

function setup() {
  const mock = createMockService();
  server.resetHandlers(...mswHandlers(mock));
  const client = new PayoutClient({ apiKey: mock.sandboxKey, baseUrl: mock.baseUrl, maxRetries: 0 });
  return { mock, client };
}

/** Answers `users.create` with a fixed user, naming no status: the row's 201 applies. */
const fixedUser: OverrideResolver<'users.create'> = ({ body }) => ({
  data: {
    userId: 'usr_override',
    mobile: body.mobile,
    mobileVerified: false,
    emailVerified: false,
    createdAt: '2025-01-01T00:00:00.000Z',
  },
});

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
    mock.override('users.create', fixedUser);
    expect((await client.users.create({ mobile: '9876543210' })).userId).toBe('usr_override');
    mock.clearOverrides();
    expect((await client.users.create({ mobile: '9876543210' })).mobile).toBe('+919876543210');
  });

  it("answers the row's success status when the override names none", async () => {
    const { mock } = setup();
    mock.override('users.create', fixedUser);
    const response = await fetch(`${mock.baseUrl}/v2/users`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${mock.sandboxKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ mobile: '9876543210' }),
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ data: { userId: 'usr_override' } });
  });

  it('takes every operation of the document, and refuses an unknown one', () => {
    const { mock } = setup();
    const ids = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/v2/'))
      .flatMap(([, operations]) => Object.values(operations).map((op) => op.operationId as OperationId));
    expect(ids).toHaveLength(31);
    for (const id of ids) expect(() => mock.override(id, () => undefined)()).not.toThrow();
    expect(() => mock.override('nothing.here' as 'users.create', () => undefined)).toThrow(/No operation/);
  });
});
