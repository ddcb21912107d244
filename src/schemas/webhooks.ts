/**
 * Webhook event records (spec 2.11, 3.4, 4.12): the list with its pagination, and the retry. The payload
 * the service delivers to the partner lives in `inr-payouts/webhooks`, not here.
 */
import * as z from 'zod/mini';
import { numberBetween, oneOf, wholeNumber } from '../internal/checks.js';
import type { WebhookEventType as KnownWebhookEventType } from '../webhooks/events.js';
import { MAX_WEBHOOK_LIMIT, openEnum, Timestamp } from './common.js';

/**
 * Delivery statuses of an event (spec 3.4).
 * @example
 * ```ts
 * import { webhookEventStatuses } from 'inr-payouts';
 * webhookEventStatuses // ['pending', 'delivered', 'failed']
 * ```
 */
export const webhookEventStatuses = ['pending', 'delivered', 'failed'] as const;

const PAGE_RULE = 'page must be a whole number from 1';
const LIMIT_RULE = `limit must be a whole number from 1 to ${MAX_WEBHOOK_LIMIT}`;

/**
 * `GET /v2/webhooks` query (names `page` and `limit` assumed, docs/assumptions.md): `page` (default 1),
 * `limit` (default 20, 1 to 100), `status` filter.
 * @example
 * ```ts
 * import { WebhookEventListQuery } from 'inr-payouts';
 * WebhookEventListQuery.parse({ page: 1, limit: 20, status: 'failed' })
 * ```
 */
export const WebhookEventListQuery = z.object({
  page: z.optional(
    z.number({ error: PAGE_RULE }).check(wholeNumber(PAGE_RULE), numberBetween(1, Infinity, PAGE_RULE)),
  ),
  limit: z.optional(
    z
      .number({ error: LIMIT_RULE })
      .check(wholeNumber(LIMIT_RULE), numberBetween(1, MAX_WEBHOOK_LIMIT, LIMIT_RULE)),
  ),
  status: z.optional(oneOf('status', webhookEventStatuses)),
});
/**
 * Webhook list query.
 * @example
 * ```ts
 * import { WebhookEventListQuery } from 'inr-payouts';
 * const q: WebhookEventListQuery = { status: 'failed', limit: 20 };
 * ```
 */
export type WebhookEventListQuery = z.infer<typeof WebhookEventListQuery>;

/**
 * Response field: a delivery status (open).
 * @example
 * ```ts
 * import { WebhookEventStatus } from 'inr-payouts';
 * WebhookEventStatus.parse('delivered')
 * ```
 */
export const WebhookEventStatus = openEnum(webhookEventStatuses);
/**
 * A delivery status.
 * @example
 * ```ts
 * import { WebhookEventStatus } from 'inr-payouts';
 * const s: WebhookEventStatus = 'failed';
 * ```
 */
export type WebhookEventStatus = z.infer<typeof WebhookEventStatus>;
/**
 * Response field: an event type (open).
 * @example
 * ```ts
 * import { WebhookEventType } from 'inr-payouts';
 * WebhookEventType.parse('user.created')
 * ```
 */
// The ten names of 6.2 are a type here (the list itself is `WEBHOOK_EVENT_TYPES` of 'inr-payouts/webhooks'), so
// the client bundle does not carry a second copy of them.
export const WebhookEventType = z.string() as unknown as z.ZodMiniType<KnownWebhookEventType | (string & {})>;
/**
 * An event type.
 * @example
 * ```ts
 * import { WebhookEventType } from 'inr-payouts';
 * const t: WebhookEventType = 'transaction.created';
 * ```
 */
export type WebhookEventType = z.infer<typeof WebhookEventType>;

/**
 * One webhook event record (spec 2.11). `transactionId` is absent on user events; `deliveredAt` until delivered.
 * @example
 * ```ts
 * import { WebhookEvent } from 'inr-payouts';
 * WebhookEvent.parse({ id: 'evt_1', eventType: 'transaction.created', status: 'delivered', attempts: 1, transactionId: 'txn_1', deliveredAt: '2024-01-15T10:30:01Z', createdAt: '2024-01-15T10:30:00Z' })
 * ```
 */
export const WebhookEvent = z.looseObject({
  id: z.string(),
  eventType: WebhookEventType,
  status: WebhookEventStatus,
  attempts: z.number(),
  transactionId: z.optional(z.nullable(z.string())),
  deliveredAt: z.optional(z.nullable(Timestamp)),
  createdAt: Timestamp,
});
/**
 * A webhook event record.
 * @example
 * ```ts
 * for await (const e of client.webhooks.listAutoPaging({ status: 'failed' })) console.log(e.id);
 * ```
 */
export type WebhookEvent = z.infer<typeof WebhookEvent>;

/**
 * `GET /v2/webhooks` `data`: the page of event records.
 * @example
 * ```ts
 * import { WebhookEventList } from 'inr-payouts';
 * WebhookEventList.parse([])
 * ```
 */
export const WebhookEventList = z.array(WebhookEvent);
/**
 * A page of event records.
 * @example
 * ```ts
 * import { WebhookEventList } from 'inr-payouts';
 * const events: WebhookEventList = [];
 * ```
 */
export type WebhookEventList = z.infer<typeof WebhookEventList>;

/**
 * The `pagination` object next to `data` in the list answer (spec 2.11).
 * @example
 * ```ts
 * import { Pagination } from 'inr-payouts';
 * Pagination.parse({ page: 1, limit: 20, total: 45, totalPages: 3 })
 * ```
 */
export const Pagination = z.looseObject({
  page: z.number(),
  limit: z.number(),
  total: z.number(),
  totalPages: z.number(),
});
/**
 * Pagination of a list.
 * @example
 * ```ts
 * import { Pagination } from 'inr-payouts';
 * const p: Pagination = { page: 1, limit: 20, total: 0, totalPages: 0 };
 * ```
 */
export type Pagination = z.infer<typeof Pagination>;

/**
 * The whole `GET /v2/webhooks` body: `success`, `data` (event records) and `pagination`.
 * @example
 * ```ts
 * import { WebhookEventListBody } from 'inr-payouts';
 * WebhookEventListBody.parse({ success: true, data: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0 } })
 * ```
 */
export const WebhookEventListBody = z.looseObject({
  success: z.literal(true),
  data: WebhookEventList,
  pagination: Pagination,
  message: z.optional(z.string()),
});
/**
 * The whole list body.
 * @example
 * ```ts
 * import { WebhookEventListBody } from 'inr-payouts';
 * const body: WebhookEventListBody = { success: true, data: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0 } };
 * ```
 */
export type WebhookEventListBody = z.infer<typeof WebhookEventListBody>;

/**
 * `POST /v2/webhooks/{eventId}/retry` data (assumed, docs/assumptions.md): the event record, `status: pending`.
 * @example
 * ```ts
 * import { WebhookRetry } from 'inr-payouts';
 * WebhookRetry.parse({ id: 'evt_1', eventType: 'transaction.created', status: 'pending', attempts: 5, createdAt: '2024-01-15T10:30:00Z' })
 * ```
 */
export const WebhookRetry = WebhookEvent;
/**
 * A retried event.
 * @example
 * ```ts
 * await client.users.create({ mobile: '9876543210' }); // emits user.created
 * const [event] = mock.helpers.webhooks.events();
 * if (event) console.log((await client.webhooks.retry(event.id)).status); // pending
 * ```
 */
export type WebhookRetry = z.infer<typeof WebhookRetry>;

/**
 * One page of `GET /v2/webhooks`: the event records and the `pagination` the service sends beside them.
 *
 * @example
 * ```ts
 * import type { WebhookEventPage } from 'inr-payouts';
 * const pages = (page: WebhookEventPage) => page.pagination?.totalPages ?? 1;
 * ```
 */
export const WebhookEventPage = z.looseObject({ data: WebhookEventList, pagination: z.optional(Pagination) });
/**
 * One page of webhook event records.
 * @example
 * ```ts
 * const { data, pagination } = await client.webhooks.list({ status: 'failed' });
 * ```
 */
export type WebhookEventPage = z.infer<typeof WebhookEventPage>;
