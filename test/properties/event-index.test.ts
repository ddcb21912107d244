/**
 * The webhook list's index (`mock/engine/event-index.ts`) answers exactly what reading every event would (spec
 * 2.11: newest first, optional status filter, page totals), for any events across accounts and any status changes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventPage, indexEvent, setEventStatus } from '../../mock/engine/event-index.js';
import { resolveOptions } from '../../mock/engine/options.js';
import { initialState } from '../../mock/operations/accounts.js';
import type { MockState } from '../../mock/state/mock-state.js';
import type { WebhookEventRecord, WebhookEventStatus } from '../../mock/state/webhooks.js';

const STATUSES: WebhookEventStatus[] = ['pending', 'delivered', 'failed'];
const status = fc.constantFrom(...STATUSES);

function record(id: string, accountId: string): WebhookEventRecord {
  return {
    id,
    accountId,
    eventType: 'user.created',
    status: 'pending',
    attempts: 0,
    createdAt: '2025-01-01T00:00:00.000Z',
    envelope: { id, event: 'user.created', timestamp: '', partnerId: accountId, data: {} },
    deliveries: [],
  };
}

function stateWith(): MockState {
  return initialState(resolveOptions({ seed: 'event-index' }));
}

function naive(state: MockState, accountId: string, page: number, limit: number, s?: WebhookEventStatus) {
  const all = Object.values(state.webhooks.byId)
    .filter((e) => e.accountId === accountId && (!s || e.status === s))
    .reverse();
  return { events: all.slice((page - 1) * limit, page * limit), total: all.length };
}

describe('2.11: the webhook list index', () => {
  it('2.11: any page, limit and status filter answers the events and total a full scan would, after any status changes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('acc_a', 'acc_b'), fc.array(status, { maxLength: 3 })), {
          maxLength: 60,
        }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 10 }),
        fc.option(status, { nil: undefined }),
        (events, page, limit, filter) => {
          const state = stateWith();
          events.forEach(([accountId, changes], i) => {
            const r = record(`evt_${i}`, accountId);
            state.webhooks.byId[r.id] = r;
            indexEvent(state, r);
            for (const next of changes) setEventStatus(state, r, next);
          });
          for (const accountId of ['acc_a', 'acc_b', 'acc_none']) {
            const expected = naive(state, accountId, page, limit, filter);
            expect(eventPage(state, accountId, { page, limit, status: filter })).toEqual(expected);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
