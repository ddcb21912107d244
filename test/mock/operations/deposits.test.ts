import { describe, expect, it } from 'vitest';
import { moneyMock, verifiedUser } from '../../support/money-mock.js';

const mock = moneyMock();

describe('6.2: pool settlement sweeps', () => {
  async function confirmedDeposit(amount: string) {
    const used = mock.use();
    const created = await used.client.transactions.create({
      userId: verifiedUser(used.service),
      amount,
      asset: 'USDC',
      network: 'base',
    });
    await used.service.clock.advance(
      used.service.helpers.transactions.simulateDeposit({ transactionId: created.transactionId }),
    );
    return { ...used, id: created.transactionId };
  }

  it('6.2 transaction.sweep_confirmed: 30 s after the deposit is confirmed, beside the payout', async () => {
    const { service, id } = await confirmedDeposit('100');
    expect(service.helpers.webhooks.events({ type: 'transaction.sweep_confirmed' })).toEqual([]);
    await service.clock.advance('30s');
    const [event] = service.helpers.webhooks.events({ type: 'transaction.sweep_confirmed' });
    expect(event?.envelope.data).toEqual({
      transactionId: id,
      network: 'base',
      asset: 'USDC',
      amount: '100',
      sweepTxHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    expect(service.helpers.transactions.get(id).status).toBe('completed');
  });

  it('6.2 transaction.sweep_failed: the sandbox amount 77.70 has its sweep fail; the payout still completes', async () => {
    const { service, client, id } = await confirmedDeposit('77.70');
    await service.clock.advance('30s');
    const [event] = service.helpers.webhooks.events({ type: 'transaction.sweep_failed' });
    expect(event?.envelope.data).toMatchObject({
      transactionId: id,
      amount: '77.7',
      reason: expect.any(String),
    });
    expect((await client.transactions.retrieve(id)).transaction.status).toBe('completed');
  });
});
