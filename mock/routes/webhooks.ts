/**
 * `GET /v2/webhooks` and `POST /v2/webhooks/{eventId}/retry` (spec 2.11, 4.12; parameter names and the retry
 * answer assumed, docs/assumptions.md), plus the delivery task. Events are listed newest first.
 */
import { ENDPOINTS } from '../../src/endpoints/index.js';
import { DEFAULT_WEBHOOK_LIMIT, DEFAULT_WEBHOOK_PAGE } from '../../src/schemas/common.js';
import type { WebhookEvent } from '../../src/schemas/webhooks.js';
import { MockApiError } from '../engine/errors.js';
import { eventPage } from '../engine/event-index.js';
import { defineModule } from '../engine/module.js';
import { route } from '../engine/route.js';
import { retryDelivery, webhookDeliver } from '../operations/webhooks.js';
import { pick } from '../state/records.js';
import type { WebhookEventRecord } from '../state/webhooks.js';

/** The wire form of an event record (spec 2.11). */
function webhookEventData(record: WebhookEventRecord): WebhookEvent {
  return pick(record, ['id', 'eventType', 'status', 'attempts', 'transactionId', 'deliveredAt', 'createdAt']);
}

const listEvents = route(ENDPOINTS['webhooks.list'], ({ query, state, account }) => {
  const page = query.page ?? DEFAULT_WEBHOOK_PAGE;
  const limit = query.limit ?? DEFAULT_WEBHOOK_LIMIT;
  // The index pages from the newest event without reading the whole store.
  const { events, total } = eventPage(state, account.id, { page, limit, status: query.status });
  return {
    data: events.map(webhookEventData),
    extra: { pagination: { page, limit, total, totalPages: Math.ceil(total / limit) } },
  };
});

const retryEvent = route(ENDPOINTS['webhooks.retry'], ({ params, state, account, now }) => {
  const record = state.webhooks.byId[params.eventId];
  if (!record || record.accountId !== account.id) {
    throw new MockApiError(404, {
      error: 'Not Found',
      message: `Webhook event ${params.eventId} not found; list events with GET /v2/webhooks`,
      code: 'EVENT_NOT_FOUND',
    });
  }
  retryDelivery(state, record, now);
  return { data: webhookEventData(record), message: `Webhook event ${record.id} queued for delivery` };
});

/** The webhook routes and the delivery task. */
export const webhooks = defineModule({
  name: 'webhooks',
  routes: [listEvents, retryEvent],
  tasks: [webhookDeliver],
});
