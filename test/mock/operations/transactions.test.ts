import { describe, expect, it } from 'vitest';
import { assertAttribution, checkAttribution } from '../../../src/money.js';
import { CreatedTransaction, Transaction } from '../../../src/schemas/transactions.js';
import { moneyMock, startReceiver, verifiedUser } from '../../support/money-mock.js';

const mock = moneyMock();

describe('2.4, 3.1: a standard transaction from create to completed', () => {
  it('3.1 (assumed transitions): created → deposit_pending → deposit_detected → deposit_confirmed → payout_processing → completed, with the attribution read by polling and from the payout_completed webhook', async () => {
    let current: ReturnType<typeof mock.use> | undefined;
    const receiver = await startReceiver(() => {
      if (!current) throw new Error('no service');
      return current.service;
    });
    current = mock.use();
    const { service, client } = current;
    service.helpers.accounts.update({ webhookUrl: receiver.url });
    service.helpers.tranches.replace([{ rate: '83.10', inrAmount: '100000' }]);
    const userId = verifiedUser(service);

    const created = await client.transactions.create({
      userId,
      amount: '100',
      asset: 'USDT',
      network: 'polygon',
      partnerReference: 'order-42',
    });
    expect(CreatedTransaction.parse(created)).toEqual(created);
    expect(created).toMatchObject({
      status: 'created',
      depositNetwork: 'polygon',
      depositAsset: 'USDT',
      expectedAmount: '100',
      quote: { exchangeRate: 83.25, feePercent: 0, feeInr: '0.00', grossInr: '8325.00', netInr: '8325.00' },
      expiresAt: '2025-01-01T00:30:00.000Z',
    });
    expect(created.depositAddress).toMatch(/^0x[0-9a-f]{40}$/);

    let read = await client.transactions.retrieve('order-42');
    expect(read.transaction).toMatchObject({ id: created.transactionId, status: 'created' });
    expect(read.payout).toEqual({ status: 'pending' });
    expect(read.deposit).not.toHaveProperty('status');

    const ms = service.helpers.transactions.simulateDeposit({ transactionId: created.transactionId });
    expect(ms).toBe(128 * 2_000);
    read = await client.transactions.retrieve(created.transactionId);
    expect(read.transaction.status).toBe('deposit_pending');
    expect(read.deposit).toMatchObject({ status: 'pending', confirmations: 0, receivedAmount: '100' });

    await service.clock.advance('2s');
    read = await client.transactions.retrieve(created.transactionId);
    expect(read.transaction.status).toBe('deposit_detected');
    expect(read.deposit).toMatchObject({ status: 'detected', confirmations: 1 });

    await service.clock.advance('100s');
    read = await client.transactions.retrieve(created.transactionId);
    expect(read.deposit.confirmations).toBe(51);

    await service.clock.advance(ms - 102_000);
    read = await client.transactions.retrieve(created.transactionId);
    // Confirmed and the payout submitted in the same instant; the attribution comes just after (2.4 rule 4).
    expect(read.transaction.status).toBe('payout_processing');
    expect(read.deposit).toMatchObject({
      status: 'confirmed',
      confirmations: 128,
      confirmedAt: '2025-01-01T00:04:16.000Z',
    });
    expect(read.payout).toMatchObject({ rail: 'imps', amountInr: '8325.00', status: 'processing' });
    expect(read.payout).not.toHaveProperty('allocations');

    await service.clock.advance('1s');
    read = await client.transactions.retrieve(created.transactionId);
    expect(read.payout).toMatchObject({ rate: '83.10', usdtEquivalent: '100.180505' });
    assertAttribution(read.payout ?? {});

    await service.clock.advance('9s');
    read = await client.transactions.retrieve(created.transactionId);
    expect(Transaction.parse(read)).toEqual(read);
    expect(read.transaction.status).toBe('completed');
    expect(read.payout).toMatchObject({ status: 'completed', completedAt: '2025-01-01T00:04:26.000Z' });
    expect(read.payout?.utr).toMatch(/^SBX\d{12}$/);

    expect(receiver.errors).toEqual([]);
    const types = receiver.received.map((r) => r.event?.event);
    expect(types).toEqual([
      'transaction.created',
      'transaction.deposit_detected',
      'transaction.deposit_confirmed',
      'transaction.payout_initiated',
      'transaction.payout_completed',
    ]);
    const completed = receiver.received.at(-1)?.event;
    if (completed?.event !== 'transaction.payout_completed') throw new Error('expected payout_completed');
    expect(completed.data).toMatchObject({
      transactionId: created.transactionId,
      merchant_id: service.accountId,
      orderId: 'order-42',
      amount: 8325,
      currency: 'INR',
      status: 'SUCCESS',
      utr: read.payout?.utr,
      receiver_name: 'Asha Rao',
      bank_account_masked: 'XXXXXXXX9012',
      ifsc_code: 'HDFC0001234',
      rate: read.payout?.rate,
      usdtEquivalent: read.payout?.usdtEquivalent,
      allocations: read.payout?.allocations,
    });
    const { rate, usdtEquivalent, allocations } = completed.data;
    expect(
      checkAttribution({
        amountInr: '8325.00',
        rate,
        usdtEquivalent,
        allocations: allocations?.map((a) => ({ ...a })),
      }),
    ).toEqual([]);
    await receiver.close();
  });
});
