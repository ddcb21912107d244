import { describe, expect, it } from 'vitest';
import { APIError } from '../../../src/index.js';
import { Credit } from '../../../src/schemas/account.js';
import { PrefundedTransaction } from '../../../src/schemas/transactions.js';
import { moneyMock, verifiedUser } from '../../support/money-mock.js';

const mock = moneyMock();
const BODY = { amount: '2500', asset: 'USDT', network: 'polygon' } as const;

function approved() {
  const used = mock.use({ account: { prefunded: { approved: true, creditLimitUsd: '10000' } } });
  /** A prefunded transaction of `BODY`, changed by `overrides`, for a verified user (the one of `mobile`). */
  const create = (overrides: { amount?: string; network?: 'ethereum' } = {}, mobile?: string) =>
    used.client.transactions.createPrefunded({
      userId: verifiedUser(used.service, mobile),
      ...BODY,
      ...overrides,
    });
  return { ...used, create };
}

/** The credit the client reads: what is outstanding, and what is still available (2.5). */
async function expectCredit(
  client: ReturnType<typeof approved>['client'],
  outstandingUsd: string,
  availableUsd: string,
) {
  expect(await client.account.retrieveCredit()).toMatchObject({ outstandingUsd, availableUsd });
}

describe('2.5, 3.1: prefunded transactions', () => {
  it('3.1: payout_processing → payout_completed → awaiting_funds → completed, with outstandingUsd and availableUsd moving as 2.5 says', async () => {
    const { service, client } = approved();
    const userId = verifiedUser(service);
    expect(Credit.parse(await client.account.retrieveCredit())).toEqual({
      prefundedEnabled: true,
      creditLimitUsd: '10000',
      outstandingUsd: '0',
      availableUsd: '10000',
    });

    const created = await client.transactions.createPrefunded({ userId, ...BODY, partnerReference: 'pf-1' });
    expect(PrefundedTransaction.parse(created)).toEqual(created);
    expect(created).toMatchObject({
      status: 'payout_processing',
      expectedAmount: '2500',
      quote: {
        exchangeRate: 83.25,
        feePercent: 0,
        feeInr: '0.00',
        grossInr: '208125.00',
        netInr: '208125.00',
      },
      // The window runs 24 h from the payout, which the sandbox completes 10 s after creation.
      expiresAt: '2025-01-02T00:00:10.000Z',
    });
    // Creating it adds its amount to outstandingUsd (2.5).
    await expectCredit(client, '2500', '7500');
    let read = await client.transactions.retrieve('pf-1');
    expect(read.transaction.status).toBe('payout_processing');
    expect(read.payout).toMatchObject({ status: 'processing', amountInr: '208125.00' });

    await service.clock.advance('10s');
    read = await client.transactions.retrieve('pf-1');
    expect(read.transaction.status).toBe('payout_completed');
    expect(read.payout).toMatchObject({ status: 'completed' });
    // 2.4 rule 3: a prefunded payout is not funded from the pool, so it carries no attribution, and a
    // wait for one fails at once rather than polling for two minutes.
    expect(read.payout).not.toHaveProperty('allocations');
    expect(read.payout?.attributionStatus).toBe('none');
    await expect(client.transactions.waitForAttribution('pf-1')).rejects.toThrow(
      /not funded from an INR escrow pool/,
    );
    await expectCredit(client, '2500', '7500');

    await service.clock.advance('1s');
    read = await client.transactions.retrieve('pf-1');
    expect(read.transaction.status).toBe('awaiting_funds');
    await expectCredit(client, '2500', '7500');

    // The deposit address is the user's standard one (4.2).
    const ms = service.helpers.transactions.simulateDeposit({ transactionId: created.transactionId });
    await service.clock.advance(ms - 2_000);
    read = await client.transactions.retrieve('pf-1');
    expect(read.transaction.status).toBe('awaiting_funds');
    expect(read.deposit).toMatchObject({ status: 'detected', confirmations: 127 });
    await expectCredit(client, '2500', '7500');

    await service.clock.advance('2s');
    read = await client.transactions.retrieve('pf-1');
    expect(read.transaction.status).toBe('completed');
    expect(read.deposit).toMatchObject({ status: 'confirmed', confirmations: 128 });
    // Confirmed receipt subtracts it: the credit is restored.
    await expectCredit(client, '0', '10000');
    const types = service.helpers.webhooks.events().map((e) => e.eventType);
    expect(types).toEqual([
      'transaction.created',
      'transaction.payout_initiated',
      'transaction.payout_completed',
      'transaction.deposit_detected',
      'transaction.deposit_confirmed',
    ]);
  });

  it('7.4 PREFUNDED_NOT_ALLOWED (403) unless the account is approved', async () => {
    const { service, client } = mock.use();
    const error = await client.transactions
      .createPrefunded({ userId: verifiedUser(service), ...BODY })
      .catch((e: unknown) => e);
    if (!(error instanceof APIError)) throw new Error('expected an APIError');
    expect([error.status, error.code]).toEqual([403, 'PREFUNDED_NOT_ALLOWED']);
  });

  it('7.4 CREDIT_LIMIT_EXCEEDED (422) above the available credit; exactly the available amount fits', async () => {
    const { client, create } = approved();
    await create({ amount: '7000' });
    const error = await create({ amount: '3000.01' }, '9876543211').catch((e: unknown) => e);
    if (!(error instanceof APIError)) throw new Error('expected an APIError');
    expect([error.status, error.code]).toEqual([422, 'CREDIT_LIMIT_EXCEEDED']);
    expect(error.message).toMatch(/available credit of 3000 USD/);
    await create({ amount: '3000' }, '9876543212');
    await expectCredit(client, '10000', '0');
  });

  it('3.1, 8: the 24-hour funding window counts from the payout; when it passes unfunded the transaction fails and the amount stays outstanding', async () => {
    const { service, client, create } = approved();
    const created = await create();
    await service.clock.advance('30s'); // the payout completed at 10 s
    const completedAt = (await client.transactions.retrieve(created.transactionId)).payout?.completedAt;
    expect(completedAt).toBe('2025-01-01T00:00:10.000Z');
    await service.clock.advance('23h59m39s'); // 24 h after creation, 1 s before the deadline
    expect((await client.transactions.retrieve(created.transactionId)).transaction.status).toBe(
      'awaiting_funds',
    );
    await service.clock.advance('1s');
    const read = await client.transactions.retrieve(created.transactionId);
    expect(read.transaction).toMatchObject({ status: 'failed', failureCode: 'FUNDING_WINDOW_EXPIRED' });
    await expectCredit(client, '2500', '7500');
  });

  it('3.1, 8: a deposit seen before the deadline but confirmed after it completes the transaction and restores the credit', async () => {
    const { service, client, create } = approved();
    const created = await create({ network: 'ethereum' });
    await service.clock.advance('10s');
    // Seen 1 s before the deadline; ethereum's confirmations take far longer than that.
    await service.clock.advance('23h59m59s');
    const ms = service.helpers.transactions.simulateDeposit({ transactionId: created.transactionId });
    expect(ms).toBeGreaterThan(1_000);
    await service.clock.advance(ms);
    const read = await client.transactions.retrieve(created.transactionId);
    expect(read.transaction).toMatchObject({ status: 'completed' });
    expect(read.transaction).not.toHaveProperty('failureCode');
    expect(Date.parse(read.deposit.confirmedAt ?? '')).toBeGreaterThan(
      Date.parse('2025-01-02T00:00:10.000Z'),
    );
    await expectCredit(client, '0', '10000');
  });

  it('7.4 PAYOUT_FAILED: a failed prefunded payout sent no INR, so its amount leaves outstandingUsd', async () => {
    const { service, client, create } = approved();
    const created = await create({ amount: '66.60' });
    expect(await client.account.retrieveCredit()).toMatchObject({ outstandingUsd: '66.6' });
    await service.clock.advance('10s');
    const read = await client.transactions.retrieve(created.transactionId);
    expect(read.transaction).toMatchObject({ status: 'failed', failureCode: 'PAYOUT_FAILED' });
    await expectCredit(client, '0', '10000');
  });
});
