/** Webhook event records and retries (spec 4.12). */
import {
  WebhookEventList,
  WebhookEventListQuery,
  WebhookEventPage,
  WebhookRetry,
} from '../schemas/webhooks.js';
import { endpoint } from './endpoint.js';

/** The webhook endpoints, keyed by operation ID. */
export const WEBHOOK_ENDPOINTS = {
  'webhooks.list': endpoint({
    method: 'GET',
    path: '/v2/webhooks',
    summary: 'Webhook event records, a page at a time',
    section: '4.12',
    data: WebhookEventList,
    query: WebhookEventListQuery,
    errors: [],
    assumptions: ['Webhook list parameters', 'Webhook list order'],
    envelope: WebhookEventPage,
  }),
  'webhooks.retry': endpoint({
    method: 'POST',
    path: '/v2/webhooks/{eventId}/retry',
    summary: 'Deliver a webhook event again now',
    section: '4.12',
    data: WebhookRetry,
    errors: ['EVENT_NOT_FOUND'],
    assumptions: ['Webhook retry'],
  }),
};
