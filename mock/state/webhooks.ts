/**
 * Webhook events (spec 2.11, 3.4, 6). `emitEvent` records them; the delivery module delivers them on the
 * clock and records each attempt.
 */
import type { WebhookEventType } from '../../src/webhooks/events.js';
import { keyed } from './records.js';

/** The ten event types (spec 6.2), as `inr-payouts/webhooks` names them. */
export type { WebhookEventType } from '../../src/webhooks/events.js';

/** The delivered envelope (spec 6.1, with `id` the event ID as decided). */
export interface WebhookEnvelope {
  id: string;
  event: WebhookEventType;
  timestamp: string;
  partnerId: string;
  data: Record<string, unknown>;
}

/** One delivery attempt. */
export interface DeliveryAttempt {
  attempt: number;
  at: string;
  /** Where it was sent. */
  url: string;
  /** The exact signed text sent, so a test can verify it as a receiver would. */
  body: string;
  /** The request headers sent (lower-case names). */
  headers: Record<string, string>;
  /** HTTP status of the answer, absent on a network error or time-out. */
  status?: number;
  /** The receiver's answer body, its first 2,048 characters (as the journal keeps bodies). */
  responseBody?: string;
  /** `timeout` after 30 s without an answer, or the network error's message. */
  error?: string;
  /** Whether the answer was a 2xx. */
  ok: boolean;
  /** `manual` for a `POST /v2/webhooks/{eventId}/retry`. */
  trigger: 'automatic' | 'manual';
}

/** A webhook event record (spec 2.11) plus what delivery needs. */
export interface WebhookEventRecord {
  id: string;
  accountId: string;
  eventType: WebhookEventType;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  transactionId?: string;
  deliveredAt?: string;
  createdAt: string;
  envelope: WebhookEnvelope;
  deliveries: DeliveryAttempt[];
  /** Attempt number and timer of the delivery waiting on the clock, if any. */
  nextAttempt?: { attempt: number; at: string; timerId: string; trigger: 'automatic' | 'manual' };
  /** True for an event sent by `helpers.webhooks.trigger`: its data stands for no stored user or transaction. */
  synthetic?: true;
}

/** The webhook events collection. */
export interface WebhooksSlice {
  /** In creation order (insertion order of the keys). */
  byId: Record<string, WebhookEventRecord>;
  /** Each account's event ids in creation order (`mock/engine/event-index.ts`). */
  idsByAccount: Record<string, string[]>;
  /** Each account's event counts by status (`mock/engine/event-index.ts`). */
  countsByAccount: Record<string, Record<WebhookEventStatus, number>>;
}

/** A webhook event's delivery status. */
export type WebhookEventStatus = WebhookEventRecord['status'];

export function emptyWebhooks(): WebhooksSlice {
  return { byId: keyed(), idsByAccount: keyed(), countsByAccount: keyed() };
}
