import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { allocate, release } from '../../../mock/machines/attribution.js';
import type { TrancheRecord } from '../../../mock/state/transactions.js';
import { TransactionStatusError, UnattributedPayoutError } from '../../../src/index.js';
import { assertAttribution } from '../../../src/money.js';
import { moneyMock, verifiedUser } from '../../support/money-mock.js';

const mock = moneyMock();

function tranche(n: number, rate: string, inr: string): TrancheRecord {
  return {
    dealId: `deal_${n}`,
    dealNumber: `D-000${n}`,
    rate,
    inrAmount: inr,
    remainingInr: inr,
    settledAt: '',
  };
}

/** A verified user's payout on arbitrum whose deposit is confirmed: the payout is under way, its attribution next. */
async function deposited(
  { service, client }: Pick<ReturnType<typeof mock.use>, 'service' | 'client'>,
  amount: string,
  asset: 'USDT' | 'USDC',
) {
  const created = await client.transactions.create({
    userId: verifiedUser(service),
    amount,
    asset,
    network: 'arbitrum',
  });
  await service.clock.advance(
    service.helpers.transactions.simulateDeposit({ transactionId: created.transactionId }),
  );
  return created;
}

describe('2.4: FIFO rate attribution', () => {
  it('2.4 rules 2, 4: a payout spanning three tranches consumes them oldest first, with usdtEquivalent the exact sum and rate the blended rate', async () => {
    const { service, client } = mock.use();
    service.helpers.tranches.replace([
      { rate: '83.10', inrAmount: '3000' },
      { rate: '83.45', inrAmount: '2500.50' },
      { rate: '84.02', inrAmount: '10000' },
    ]);
    const created = await deposited({ service, client }, '100', 'USDT');
    expect((await client.transactions.retrieve(created.transactionId)).payout).not.toHaveProperty('rate');
    await service.clock.advance('1s');
    const { payout } = await client.transactions.retrieve(created.transactionId);
    expect(payout?.allocations).toEqual([
      {
        dealId: expect.any(String),
        dealNumber: 'D-0001',
        rate: '83.10',
        inrAmount: '3000.00',
        usdtAmount: '36.101083',
      },
      {
        dealId: expect.any(String),
        dealNumber: 'D-0002',
        rate: '83.45',
        inrAmount: '2500.50',
        usdtAmount: '29.964050',
      },
      {
        dealId: expect.any(String),
        dealNumber: 'D-0003',
        rate: '84.02',
        inrAmount: '2824.50',
        usdtAmount: '33.616996',
      },
    ]);
    const sum = (payout?.allocations ?? []).reduce((t, a) => t.plus(a.usdtAmount), new Decimal(0));
    expect(payout?.usdtEquivalent).toBe(sum.toFixed(6));
    expect(payout?.usdtEquivalent).toBe('99.682129');
    expect(payout?.rate).toBe(
      new Decimal('8325').dividedBy(sum).toDecimalPlaces(4, Decimal.ROUND_HALF_UP).toFixed(4),
    );
    expect(
      new Decimal(payout?.amountInr ?? '0').eq(
        (payout?.allocations ?? []).reduce((t, a) => t.plus(a.inrAmount), new Decimal(0)),
      ),
    ).toBe(true);
    assertAttribution(payout ?? {});
    expect(service.helpers.tranches.list().map((t) => t.remainingInr)).toEqual(['0.00', '0.00', '7175.50']);
  });

  it('2.4 rule 5: a payout the pool cannot cover still completes, unattributed, and leaves the pool untouched', async () => {
    const { service, client } = mock.use();
    service.helpers.tranches.replace([{ rate: '83.10', inrAmount: '1000' }]);
    const created = await deposited({ service, client }, '100', 'USDC');
    await service.clock.advance('10s');
    const { transaction, payout } = await client.transactions.retrieve(created.transactionId);
    expect(transaction.status).toBe('completed');
    expect(payout).not.toHaveProperty('allocations');
    expect(service.helpers.tranches.list()[0]?.remainingInr).toBe('1000.00');
  });

  it('2.4: a fresh mock attributes a standard payout to the default pool with no set-up', async () => {
    const { service, client } = mock.use();
    const created = await deposited({ service, client }, '100', 'USDT');
    expect((await client.transactions.retrieve(created.transactionId)).payout).toMatchObject({
      attributionStatus: 'pending',
    });
    await service.clock.advance('1s');
    const { payout } = await client.transactions.retrieve(created.transactionId);
    expect(payout).toMatchObject({ attributionStatus: 'attributed', rate: '83.10' });
    expect(payout?.allocations?.map((a) => [a.dealId, a.dealNumber, a.inrAmount])).toEqual([
      ['deal_sandbox_1', 'SBX-0001', '8325.00'],
    ]);
  });

  it('2.4 rule 3: without a pool there is no attribution, and waitForAttribution says so at once', async () => {
    const { service, client } = mock.use();
    service.helpers.tranches.clear();
    const created = await deposited({ service, client }, '100', 'USDC');
    await service.clock.advance('10s');
    const { payout } = await client.transactions.retrieve(created.transactionId);
    expect(payout).not.toHaveProperty('rate');
    expect(payout?.attributionStatus).toBe('none');
    // With the default 2-minute deadline, failing on the first read is the only way to finish here.
    await expect(client.transactions.waitForAttribution(created.transactionId)).rejects.toThrow(
      /will never get a rate attribution: it is not funded from an INR escrow pool/,
    );
    await expect(client.transactions.waitForAttribution(created.transactionId)).rejects.toBeInstanceOf(
      UnattributedPayoutError,
    );
  });

  it('2.4: a payout that fails after its attribution gives its tranches back, and waitForAttribution says it failed', async () => {
    const { service, client } = mock.use();
    service.helpers.tranches.replace([
      { rate: '83.10', inrAmount: '3000' },
      { rate: '83.45', inrAmount: '10000' },
    ]);
    const before = service.helpers.tranches.list().map((t) => t.remainingInr);
    const created = await deposited({ service, client }, '66.60', 'USDT');
    await service.clock.advance('1s');
    const attributed = await client.transactions.retrieve(created.transactionId);
    expect(attributed.payout).toMatchObject({ attributionStatus: 'attributed' });
    expect(service.helpers.tranches.list().map((t) => t.remainingInr)).not.toEqual(before);
    await service.clock.advance('10s');
    const failed = await client.transactions.retrieve(created.transactionId);
    expect(failed.transaction.status).toBe('failed');
    expect(failed.payout).toMatchObject({ status: 'failed', attributionStatus: 'none' });
    expect(failed.payout).not.toHaveProperty('allocations');
    expect(service.helpers.tranches.list().map((t) => t.remainingInr)).toEqual(before);
    const waited = client.transactions.waitForAttribution(created.transactionId);
    await expect(waited).rejects.toBeInstanceOf(TransactionStatusError);
    await expect(waited).rejects.toMatchObject({ status: 'failed' });
  });

  it('2.4: a payout that fails before its attribution is a failed transaction to waitForAttribution, not an unfunded one', async () => {
    const { service, client } = mock.use();
    const created = await deposited({ service, client }, '66.60', 'USDC');
    await service.helpers.transactions.failPayout({ transactionId: created.transactionId });
    await service.clock.advance('1s');
    expect((await client.transactions.retrieve(created.transactionId)).payout?.attributionStatus).toBe(
      'none',
    );
    const waited = client.transactions.waitForAttribution(created.transactionId);
    await expect(waited).rejects.toBeInstanceOf(TransactionStatusError);
    await expect(waited).rejects.not.toBeInstanceOf(UnattributedPayoutError);
  });

  it('2.4: release gives allocations back to the tranches they came from and brings back none that left the pool', () => {
    const pool = [tranche(1, '83', '830'), tranche(2, '84', '840')];
    const { attribution, remainingTranches } = allocate(pool, '1000');
    expect(remainingTranches.map((t) => t.remainingInr)).toEqual(['0.00', '670.00']);
    expect(release(remainingTranches, attribution?.allocations ?? []).map((t) => t.remainingInr)).toEqual([
      '830.00',
      '840.00',
    ]);
    expect(release(remainingTranches.slice(1), attribution?.allocations ?? [])).toEqual([
      { ...tranche(2, '84', '840'), remainingInr: '840.00' },
    ]);
  });

  it('2.4: allocate is pure, exact and FIFO; within one tranche the rate is the deal rate', () => {
    const pool = [tranche(1, '83', '830'), tranche(2, '84', '840')];
    const one = allocate(pool, '415');
    expect(one.attribution).toEqual({
      rate: '83',
      usdtEquivalent: '5.000000',
      allocations: [
        { dealId: 'deal_1', dealNumber: 'D-0001', rate: '83', inrAmount: '415.00', usdtAmount: '5.000000' },
      ],
    });
    expect(pool[0]?.remainingInr).toBe('830');
    const spill = allocate(one.remainingTranches, '835');
    expect(spill.allocations?.map((a) => [a.dealNumber, a.inrAmount])).toEqual([
      ['D-0001', '415.00'],
      ['D-0002', '420.00'],
    ]);
    expect(spill.usdtEquivalent).toBe('10.000000');
    expect(spill.rate).toBe('83.5000');
    expect(allocate(pool, '1670.01').attribution).toBeUndefined();
  });
});
