/**
 * A whole transaction over HTTP with plain `fetch`, moved along by the `/__mock` helpers: a verified user,
 * a standard transaction, the deposit, its confirmations and the payout on the virtual clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from './support.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer(['--seed', 'transactions']);
});
afterAll(async () => {
  await server.stop();
});

describe('a transaction over HTTP', () => {
  it('4.2, 3.1: created (201), deposit simulated, confirmed on the clock, paid out to completed', async () => {
    const seeded = await server.helper('users/seedVerified', { mobile: '9876543210', name: 'Asha Rao' });
    const { userId } = seeded.body.data as { userId: string };

    const body = { userId, amount: '100', asset: 'USDT', network: 'polygon', partnerReference: 'order-1' };
    const headers = { 'Idempotency-Key': '0b8f7c6e-2a8c-4b1f-9a59-55b4fd1e2c10' };
    const created = await server.call('POST', '/v2/transactions', body, headers);
    expect(created.status).toBe(201);
    const { transactionId, depositAddress } = created.body.data as {
      transactionId: string;
      depositAddress: string;
    };
    expect(depositAddress).toBeTruthy();
    const replay = await server.call('POST', '/v2/transactions', body, headers);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');

    const deposit = await server.helper('transactions/simulateDeposit', { transactionId, amount: '100' });
    expect(deposit.status).toBe(200);
    await server.helper('clock/advance', deposit.body.data);
    const confirmed = await server.call('GET', `/v2/transactions/${transactionId}`);
    expect(confirmed.body.data).toMatchObject({ deposit: { status: 'confirmed', receivedAmount: '100' } });

    await server.helper('clock/advance', '1h');
    const done = await server.call('GET', '/v2/transactions/order-1');
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({
      transaction: { id: transactionId, status: 'completed', partnerReference: 'order-1' },
      payout: { status: 'completed' },
    });
  });

  it('3.1: a helper transition the transaction is not in is refused with 409 and the reason', async () => {
    const seeded = await server.helper('users/seedVerified', { mobile: '9876500010' });
    const { userId } = seeded.body.data as { userId: string };
    const created = await server.call('POST', '/v2/transactions', {
      userId,
      amount: '50',
      asset: 'USDC',
      network: 'base',
    });
    const { transactionId } = created.body.data as { transactionId: string };
    const refused = await server.helper('transactions/completePayout', { transactionId });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'TRANSITION_REFUSED',
      state: 'created',
      allowed: ['payout_processing'],
    });
  });
});
