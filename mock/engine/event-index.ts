/**
 * The index behind `GET /v2/webhooks`: each account's event ids in creation order and its event counts by
 * status, kept as events are recorded and change status. With it the list answers a page and its totals without
 * reading every event in the store (flat from 1,000 to 100,000 events; test/bench/mock.bench.ts). Plain data in
 * state like everything else.
 */

import type { MockState } from '../state/mock-state.js';
import type { WebhookEventRecord, WebhookEventStatus, WebhooksSlice } from '../state/webhooks.js';

type Index = Pick<WebhooksSlice, 'idsByAccount' | 'countsByAccount'>;

function emptyCounts(): Record<WebhookEventStatus, number> {
  return { pending: 0, delivered: 0, failed: 0 };
}

/** Counts one more event of `status` for `accountId`. */
function add(ix: Index, accountId: string, id: string, status: WebhookEventStatus): void {
  const ids = ix.idsByAccount[accountId] ?? [];
  ids.push(id);
  ix.idsByAccount[accountId] = ids;
  countsOf(ix, accountId)[status] += 1;
}

function countsOf(ix: Index, accountId: string): Record<WebhookEventStatus, number> {
  const counts = ix.countsByAccount[accountId] ?? emptyCounts();
  ix.countsByAccount[accountId] = counts;
  return counts;
}

/** Adds a newly stored event to the index. */
export function indexEvent(state: MockState, record: WebhookEventRecord): void {
  add(state.webhooks, record.accountId, record.id, record.status);
}

/** Changes an event's status, keeping the counts right. */
export function setEventStatus(
  state: MockState,
  record: WebhookEventRecord,
  status: WebhookEventStatus,
): void {
  if (record.status === status) return;
  const counts = countsOf(state.webhooks, record.accountId);
  counts[record.status] = Math.max(0, counts[record.status] - 1);
  counts[status] += 1;
  record.status = status;
}

/**
 * One page of an account's events, newest first, optionally of one status, and how many there are in all.
 * Without a status it reads only the page; with one it reads back from the newest until the page is full.
 */
export function eventPage(
  state: MockState,
  accountId: string,
  { page, limit, status }: { page: number; limit: number; status?: WebhookEventStatus },
): { events: WebhookEventRecord[]; total: number } {
  const { idsByAccount, countsByAccount } = state.webhooks;
  const ids = idsByAccount[accountId] ?? [];
  const counts = countsByAccount[accountId] ?? emptyCounts();
  const total = status ? counts[status] : ids.length;
  const events: WebhookEventRecord[] = [];
  let skip = (page - 1) * limit;
  for (let i = ids.length - 1; i >= 0 && events.length < limit; i--) {
    const record = state.webhooks.byId[ids[i] ?? ''];
    if (!record || (status && record.status !== status)) continue;
    if (skip > 0) skip -= 1;
    else events.push(record);
  }
  return { events, total };
}
