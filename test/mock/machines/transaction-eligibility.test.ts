import { describe, expect, it } from 'vitest';
import { moneyMock } from '../../support/money-mock.js';

const mock = moneyMock();
const BANK = { accountNumber: '123456789012', ifsc: 'HDFC0001234', accountHolderName: 'Asha Rao' };

describe('2.7 rule 4, 3.3, 7.3: transacting after the real KYC calls', () => {
  it('7.3: KYC_INCOMPLETE before refresh, then a user made verified through the client transacts to completed', async () => {
    const { service, client } = mock.use();
    service.helpers.webhooks.useFetch(async () => new Response('ok'));
    const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
    const session = await client.kyc.digilocker.init(userId);
    service.helpers.digilocker.complete({ clientId: session.clientId, outcome: 'approve' });
    await client.kyc.digilocker.status(userId, { clientId: session.clientId });
    await client.kyc.bank.verify(userId, BANK);
    const body = { userId, amount: '250', asset: 'USDC', network: 'arbitrum' } as const;
    // 3.3: the requirements are met, but only refresh makes the status verified.
    await expect(client.transactions.create(body)).rejects.toMatchObject({
      status: 422,
      code: 'KYC_INCOMPLETE',
    });
    expect((await client.kyc.refresh(userId)).current).toEqual({ level: 'basic', status: 'verified' });

    const created = await client.transactions.create(body);
    await service.clock.advance(
      service.helpers.transactions.simulateDeposit({ transactionId: created.transactionId }),
    );
    await service.clock.advance('10s');
    const read = await client.transactions.retrieve(created.transactionId);
    expect(read.transaction.status).toBe('completed');
    const [event] = service.helpers.webhooks.events({ type: 'transaction.payout_completed' });
    expect(event?.envelope.data).toMatchObject({
      amount: 20812.5,
      receiver_name: 'ASHA RAO', // as the bank has it
      ifsc_code: 'HDFC0001234',
      bank_account_masked: expect.stringMatching(/9012$/),
    });
  });
});
