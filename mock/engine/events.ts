/**
 * The seam between domain code and webhook delivery: a domain records an event; the delivery module
 * delivers it when the `webhook.deliver` timer runs.
 */

import type { MockState } from '../state/mock-state.js';
import type { WebhookEventRecord, WebhookEventType } from '../state/webhooks.js';
import { indexEvent } from './event-index.js';
import { nextId } from './ids.js';
import { nowIso, schedule } from './timers.js';

/** The timer kind of a delivery attempt; its payload is `{ eventId }`. @example schedule(state, WEBHOOK_DELIVER, '1s', { eventId }) */
export const WEBHOOK_DELIVER = 'webhook.deliver';

/**
 * Records a webhook event (spec 2.11: `pending`, 0 attempts) with its envelope (spec 6.1, `id` the event ID)
 * and schedules its first delivery attempt now (spec 6.4: attempt 1 is immediate).
 */
export function emitEvent(
  state: MockState,
  accountId: string,
  eventType: WebhookEventType,
  data: Record<string, unknown>,
  options: { transactionId?: string } = {},
): WebhookEventRecord {
  const id = nextId(state, 'evt');
  const timestamp = nowIso(state);
  const record: WebhookEventRecord = {
    id,
    accountId,
    eventType,
    status: 'pending',
    attempts: 0,
    transactionId: options.transactionId,
    createdAt: timestamp,
    envelope: { id, event: eventType, timestamp, partnerId: accountId, data: structuredClone(data) },
    deliveries: [],
  };
  state.webhooks.byId[id] = record;
  indexEvent(state, record);
  schedule(state, WEBHOOK_DELIVER, 0, { eventId: id });
  return record;
}
