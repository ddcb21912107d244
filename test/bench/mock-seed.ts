// Seeds a mock's store with many transactions and webhook events directly (no HTTP: 100,000 creates through
// the API would take minutes), by copying one transaction and its event made through the API, then restoring
// the enlarged snapshot. Used by test/bench/mock.bench.ts.
import { indexEvent } from '../../mock/engine/event-index.js';
import type { MockService } from '../../mock/service.js';

/** A request through the service's dispatch (no network, no interception). */
export async function call(
  mock: MockService,
  method: string,
  path: string,
  body?: unknown,
): Promise<Response> {
  const request = new Request(`${mock.baseUrl}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${mock.sandboxKey}`,
      'Content-Type': 'application/json',
      ...(method === 'POST' ? { 'Idempotency-Key': crypto.randomUUID() } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const response = await mock.dispatch(request);
  if (!response) throw new Error(`the mock does not serve ${method} ${path}`);
  return response;
}

/** Fills the default account with `count` transactions and as many `transaction.created` events. */
export async function seedTransactions(mock: MockService, count: number): Promise<void> {
  // The benchmark's thousands of reads would hit the per-minute limit on the stopped clock.
  mock.helpers.accounts.update({ limits: { rateLimit: Number.MAX_SAFE_INTEGER } });
  const { userId } = mock.helpers.users.seedVerified({ mobile: '9000000001', name: 'Bench User' });
  const created = await call(mock, 'POST', '/v2/transactions', {
    userId,
    amount: '100',
    asset: 'USDT',
    network: 'polygon',
  });
  if (created.status !== 201) throw new Error(`the template create answered ${created.status}`);
  const state = mock.helpers.snapshot();
  const accountId = state.accounts.defaultId;
  const [templateId] = state.transactions.idsByAccount[accountId] ?? [];
  const template = state.transactions.byId[templateId ?? ''];
  const event = Object.values(state.webhooks.byId).find((e) => e.transactionId === templateId);
  if (!template || !event) throw new Error('the template transaction or its event is missing');
  const ids: string[] = [];
  const start = Date.parse(template.createdAt);
  for (let i = 1; i < count; i++) {
    const id = `txn_seed_${i}`;
    const at = new Date(start + i).toISOString();
    state.transactions.byId[id] = { ...template, id, createdAt: at, updatedAt: at, timerIds: [] };
    ids.push(id);
    const eventId = `evt_seed_${i}`;
    const copy = {
      ...event,
      id: eventId,
      transactionId: id,
      createdAt: at,
      envelope: { ...event.envelope, id: eventId, timestamp: at },
    };
    state.webhooks.byId[eventId] = copy;
    // Indexed as the mock indexes an event it stores: a restored state must be whole, nothing is rebuilt.
    indexEvent(state, copy);
  }
  // The template stays the newest, as it would be had the others come first.
  state.transactions.idsByAccount[accountId] = [...ids, ...(templateId ? [templateId] : [])];
  delete state.transactions.activeByUser[userId];
  mock.helpers.restore(state);
}
