import { describe, expect, it } from 'vitest';
import type { MockState } from '../../../mock/index.js';
import { moneyMock, verifiedUser } from '../../support/money-mock.js';

const mock = moneyMock();

/** A transaction with its deposit just seen; on polygon, 128 confirmations, one block every 2 s. */
async function seenOn(network: 'polygon' | 'arbitrum' = 'polygon') {
  const used = mock.use();
  const created = await used.client.transactions.create({
    userId: verifiedUser(used.service),
    amount: '100',
    asset: 'USDT',
    network,
  });
  const ms = used.service.helpers.transactions.simulateDeposit({ transactionId: created.transactionId });
  return { ...used, id: created.transactionId, ms };
}

describe('3.1, 6.2: confirmations count up block by block on the virtual clock', () => {
  it('every read between the first and the last block counts the blocks mined so far, with the block time as updatedAt', async () => {
    const { service, client, id } = await seenOn();
    const seenAt = service.clock.now();
    for (const blocks of [1, 2, 17, 64, 127]) {
      // Half a block after the block: the count and the time stay those of the block.
      await service.clock.advance(seenAt + blocks * 2_000 + 1_000 - service.clock.now());
      const read = await client.transactions.retrieve(id);
      expect(read.transaction.status).toBe('deposit_detected');
      expect(read.deposit).toMatchObject({ status: 'detected', confirmations: blocks });
      expect(read.transaction.updatedAt).toBe(new Date(seenAt + blocks * 2_000).toISOString());
      expect(service.helpers.transactions.get(id).deposit.confirmations).toBe(blocks);
      const activity = await client.account.listActivity({ limit: 1 });
      expect(activity[0]).toMatchObject({ id, updatedAt: read.transaction.updatedAt });
    }
    await service.clock.advance(seenAt + 128 * 2_000 - service.clock.now());
    const read = await client.transactions.retrieve(id);
    expect(read.deposit).toMatchObject({ status: 'confirmed', confirmations: 128 });
    expect(read.transaction.status).toBe('payout_processing');
  });

  it('the first and the last block run a timer and send their events; the blocks between are counted, not timed', async () => {
    const { service, id, ms } = await seenOn();
    await service.clock.advance(ms);
    const blockTimers = service.journal.entries({ type: 'timer', transactionId: id });
    expect(blockTimers.filter((e) => e.type === 'timer' && e.kind === 'transaction.block')).toHaveLength(2);
    const events = service.helpers.webhooks
      .events()
      .filter((e) => e.transactionId === id)
      .map((e) => e.envelope);
    expect(events.filter((e) => e.event.startsWith('transaction.deposit_'))).toEqual([
      expect.objectContaining({
        event: 'transaction.deposit_detected',
        data: expect.objectContaining({ confirmations: 1 }),
      }),
      expect.objectContaining({
        event: 'transaction.deposit_confirmed',
        data: expect.objectContaining({ confirmations: 128 }),
      }),
    ]);
  });

  it('a network that needs one confirmation detects and confirms the deposit at its one block', async () => {
    const { service, client, id, ms } = await seenOn('arbitrum');
    await service.clock.advance(ms);
    const events = service.helpers.webhooks.events().filter((e) => e.transactionId === id);
    expect(events.map((e) => e.eventType).filter((t) => t.startsWith('transaction.deposit_'))).toEqual([
      'transaction.deposit_detected',
      'transaction.deposit_confirmed',
    ]);
    const read = await client.transactions.retrieve(id);
    expect(read.deposit).toMatchObject({ status: 'confirmed', confirmations: 1 });
  });

  it('a state saved mid-deposit keeps counting after a restore', async () => {
    const { service, client, id } = await seenOn();
    await service.clock.advance('101s'); // 50 blocks
    const saved = service.helpers.snapshot();
    await service.clock.advance('60s');
    service.helpers.restore(saved);
    expect((await client.transactions.retrieve(id)).deposit.confirmations).toBe(50);
    await service.clock.advance('60s');
    expect((await client.transactions.retrieve(id)).deposit.confirmations).toBe(80);
  });

  it('a state saved when every block ran its own timer (a count and the next block pending) goes on to the same end', async () => {
    const { service, client, id } = await seenOn();
    const seenAt = service.clock.now();
    await service.clock.advance('102s'); // 51 blocks
    // The shape a state file kept before: the count stored at block 51, no first-block time, a timer at block 52.
    const saved: MockState = service.helpers.snapshot();
    const txn = saved.transactions.byId[id];
    if (!txn) throw new Error('the snapshot has no transaction');
    txn.deposit.confirmations = 51;
    delete txn.deposit.detectedAt;
    txn.updatedAt = new Date(seenAt + 51 * 2_000).toISOString();
    const block = saved.timers.find((t) => t.kind === 'transaction.block');
    if (!block) throw new Error('the snapshot has no block timer');
    block.at = seenAt + 52 * 2_000;
    saved.timers.sort((a, b) => a.at - b.at);
    service.helpers.restore(saved);

    expect((await client.transactions.retrieve(id)).deposit.confirmations).toBe(51);
    await service.clock.advance('2s');
    expect((await client.transactions.retrieve(id)).deposit.confirmations).toBe(52);
    await service.clock.advance('150s');
    expect((await client.transactions.retrieve(id)).deposit.confirmations).toBe(127);
    await service.clock.advance('2s');
    const read = await client.transactions.retrieve(id);
    expect(read.deposit).toMatchObject({
      status: 'confirmed',
      confirmations: 128,
      confirmedAt: new Date(seenAt + 128 * 2_000).toISOString(),
    });
  });
});
