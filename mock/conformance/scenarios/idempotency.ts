/**
 * Idempotency (spec 7.5, 8): the same key and body answers the first answer again, 200 with
 * `Idempotent-Replayed: true`; the same key with another body answers 409 `IDEMPOTENCY_CONFLICT` and does nothing.
 */
import type { Scenario } from '../types.js';
import { order, verifiedUser } from './support.js';

/** The idempotency scenarios. */
export const IDEMPOTENCY_SCENARIOS: Scenario[] = [
  {
    id: 'idempotency.user-create',
    title: 'A user create replayed and then reused with another body',
    spec: '8 Idempotency, 7.5',
    tier: 'creates',
    async run(t) {
      const idempotencyKey = crypto.randomUUID();
      const body = { mobile: t.newMobile(), deviceId: t.name('device') };
      const first = await t.client.users.create(body, { idempotencyKey });
      const again = await t.client.users.create(body, { idempotencyKey });
      t.step('replay answers the same user', first.userId === again.userId);
      await t.refused(t.client.users.create({ ...body, mobile: t.newMobile() }, { idempotencyKey }));
    },
  },
  {
    id: 'idempotency.transaction-create',
    title: 'A transaction create replayed and then reused with another body',
    spec: '4.2, 8 Idempotency, 7.5',
    tier: 'mock-helpers',
    async run(t) {
      const { userId } = await verifiedUser(t, 'a transaction for a KYC-verified user');
      const idempotencyKey = crypto.randomUUID();
      const body = order(t, userId);
      const first = await t.client.transactions.create(body, { idempotencyKey });
      const again = await t.client.transactions.create(body, { idempotencyKey });
      t.step('replay answers the same transaction', first.transactionId === again.transactionId);
      await t.refused(t.client.transactions.create({ ...body, amount: '101' }, { idempotencyKey }));
    },
  },
];
