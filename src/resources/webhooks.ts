import type { ApiPromise } from '../core/api-promise.js';
import { pathParam, type Transport } from '../core/transport.js';
import type { RequestOptions } from '../core/types.js';
import {
  type WebhookEvent,
  type WebhookEventListQuery,
  WebhookEventListQuery as WebhookEventListQuerySchema,
  type WebhookEventPage,
  WebhookEventPage as WebhookEventPageSchema,
  type WebhookRetry,
  WebhookRetry as WebhookRetrySchema,
} from '../schemas/webhooks.js';
import { send } from './shared.js';

/**
 * Webhook events (spec 2.11, 4.12): list them (one page, or every page with `for await`) and retry one.
 *
 * @example
 * ```ts
 * for await (const event of client.webhooks.listAutoPaging({ status: 'failed' })) {
 *   await client.webhooks.retry(event.id);
 * }
 * ```
 */
export class WebhooksResource {
  constructor(private readonly transport: Transport) {}

  /**
   * `GET /v2/webhooks?page=&limit=&status=` (parameter names assumed, docs/assumptions.md): one page of event
   * records with its `pagination`. `page` from 1, `limit` 1 to 100 (the service's defaults are 1 and 20),
   * `status` one of `pending`, `delivered`, `failed`.
   * @example
   * ```ts
   * const { data, pagination } = await client.webhooks.list({ status: 'failed', limit: 50 });
   * ```
   */
  list(query: WebhookEventListQuery = {}, options?: RequestOptions): ApiPromise<WebhookEventPage> {
    return send(
      this.transport,
      () => ({
        method: 'GET',
        path: '/v2/webhooks',
        query,
        querySchema: WebhookEventListQuerySchema,
        // `pagination` sits beside `data`, so the whole envelope is read.
        envelopeSchema: WebhookEventPageSchema,
      }),
      options,
    );
  }

  /**
   * Every event record matching `query`, page after page, from `query.page` (default 1). It stops at the last
   * page `pagination` names (or at a short page when the service sends none). For `for await`.
   * @example
   * ```ts
   * for await (const event of client.webhooks.listAutoPaging({ status: 'failed' })) console.log(event.id);
   * ```
   */
  async *listAutoPaging(
    query: WebhookEventListQuery = {},
    options?: RequestOptions,
  ): AsyncGenerator<WebhookEvent, void, undefined> {
    let page = query.page ?? 1;
    for (;;) {
      const { data, pagination } = await this.list({ ...query, page }, options);
      yield* data;
      const limit = pagination?.limit ?? query.limit ?? 20;
      const last = pagination ? page >= pagination.totalPages : data.length < limit;
      if (last || data.length === 0) return;
      page += 1;
    }
  }

  /**
   * `POST /v2/webhooks/{eventId}/retry`: delivers the event again now (response assumed: the event record with
   * `status: pending`, docs/assumptions.md). An unknown event throws `NotFoundError` (`EVENT_NOT_FOUND`).
   * @example
   * ```ts
   * await client.users.create({ mobile: '9876543210' }); // emits user.created
   * const [event] = mock.helpers.webhooks.events();
   * if (event) {
   *   const { status, attempts } = await client.webhooks.retry(event.id);
   *   console.log(status, attempts); // pending 0: the delivery runs at once
   * }
   * ```
   */
  retry(eventId: string, options?: RequestOptions): ApiPromise<WebhookRetry> {
    return send(
      this.transport,
      () => ({
        method: 'POST',
        path: `/v2/webhooks/${pathParam('eventId', eventId)}/retry`,
        dataSchema: WebhookRetrySchema,
      }),
      options,
    );
  }
}
