/** Webhook event records and retries (spec 4.12). */
import {
  WebhookEventList,
  WebhookEventListQuery,
  WebhookEventPage,
  WebhookRetry,
} from '../schemas/webhooks.js';
import type { Endpoint, EndpointContract } from './endpoint.js';

/** The webhooks endpoints' calls, keyed by operation ID. */
export const WEBHOOK_ENDPOINTS = {
  'webhooks.list': {
    method: 'GET',
    path: '/v2/webhooks',
    data: WebhookEventList,
    query: WebhookEventListQuery,
    envelope: WebhookEventPage,
  },
  'webhooks.retry': {
    method: 'POST',
    path: '/v2/webhooks/{eventId}/retry',
    data: WebhookRetry,
  },
} as const satisfies Record<string, Endpoint>;

/** The webhooks endpoints' contract, keyed as the calls are. */
export const WEBHOOK_CONTRACTS: Record<keyof typeof WEBHOOK_ENDPOINTS, EndpointContract> = {
  'webhooks.list': {
    summary: 'Webhook event records, a page at a time',
    section: '4.12',
    errors: [],
    assumptions: ['Webhook list parameters', 'Webhook list order'],
  },
  'webhooks.retry': {
    summary: 'Deliver a webhook event again now',
    section: '4.12',
    errors: ['EVENT_NOT_FOUND'],
    assumptions: ['Webhook retry'],
  },
};
