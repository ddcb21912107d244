// Webhook event records (spec 2.11, 3.4, 4.12): the list with its pagination, and the retry. The payload
// the service delivers to the partner lives in `inr-payouts/webhooks`, not here.
import * as z from 'zod/mini';
import { oneOf, wholeNumberBetween } from '../internal/checks.js';
import type { WebhookEventType as KnownWebhookEventType } from '../webhooks/events.js';
import { MAX_WEBHOOK_LIMIT, openEnum, responseObject, Timestamp } from './common.js';

/** Delivery statuses of an event (spec 3.4). */
export const webhookEventStatuses = ['pending', 'delivered', 'failed'] as const;

const PAGE_RULE = 'page must be a whole number from 1';
const LIMIT_RULE = `limit must be a whole number from 1 to ${MAX_WEBHOOK_LIMIT}`;

/** `GET /v2/webhooks` query (names assumed, docs/assumptions.md): `page` (default 1), `limit` (20; 1-100). */
export const WebhookEventListQuery = z.object({
  page: z.optional(wholeNumberBetween(1, Infinity, PAGE_RULE)),
  limit: z.optional(wholeNumberBetween(1, MAX_WEBHOOK_LIMIT, LIMIT_RULE)),
  status: z.optional(oneOf('status', webhookEventStatuses)),
});
/** Webhook list query. */
export type WebhookEventListQuery = z.infer<typeof WebhookEventListQuery>;

/** Response field: a delivery status (open: `OpenEnum<typeof webhookEventStatuses>`). */
export const WebhookEventStatus = openEnum(webhookEventStatuses);
/** A delivery status, for the list's `status` filter; a record reads it as {@link WebhookEventStatus}. */
export type WebhookEventStatus = (typeof webhookEventStatuses)[number];
/** Response field: an event type (open). */
// The names of 6.2 only as a type: the client bundle carries no second copy of `WEBHOOK_EVENT_TYPES`.
export const WebhookEventType = z.string() as unknown as z.ZodMiniType<KnownWebhookEventType | (string & {})>;
/** An event type. */
export type WebhookEventType = z.infer<typeof WebhookEventType>;

/** An event record (spec 2.11); no `transactionId` on user events, no `deliveredAt` until delivered. */
export const WebhookEvent = responseObject({
  id: z.string(),
  eventType: WebhookEventType,
  status: WebhookEventStatus,
  attempts: z.number(),
  transactionId: z.optional(z.nullable(z.string())),
  deliveredAt: z.optional(z.nullable(Timestamp)),
  createdAt: Timestamp,
});
/** A webhook event record. */
export type WebhookEvent = z.infer<typeof WebhookEvent>;

/** `GET /v2/webhooks` `data`: the page of event records. */
export const WebhookEventList = z.array(WebhookEvent);
/** A page of event records. */
export type WebhookEventList = z.infer<typeof WebhookEventList>;

/** The `pagination` object next to `data` in the list answer (spec 2.11). */
export const Pagination = responseObject({
  page: z.number(),
  limit: z.number(),
  total: z.number(),
  totalPages: z.number(),
});
/** Pagination of a list. */
export type Pagination = z.infer<typeof Pagination>;

/** The whole `GET /v2/webhooks` body: `success`, `data` (event records) and `pagination`. */
export const WebhookEventListBody = responseObject({
  success: z.literal(true),
  data: WebhookEventList,
  pagination: Pagination,
  message: z.optional(z.string()),
});
/** The whole list body. */
export type WebhookEventListBody = z.infer<typeof WebhookEventListBody>;

/** `POST /v2/webhooks/{eventId}/retry` data (assumed, docs/assumptions.md): the record, `status: pending`. */
export const WebhookRetry = WebhookEvent;
/** A retried event. */
export type WebhookRetry = z.infer<typeof WebhookRetry>;

/** One page of `GET /v2/webhooks`: the event records and the `pagination` the service sends beside them. */
export const WebhookEventPage = responseObject({
  data: WebhookEventList,
  pagination: z.optional(Pagination),
});
/** One page of webhook event records. */
export type WebhookEventPage = z.infer<typeof WebhookEventPage>;
