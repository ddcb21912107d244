import * as z from 'zod/mini';
import type { ApiPromise } from '../core/api-promise.js';
import { pathParam, type Transport } from '../core/transport.js';
import type { RequestOptions } from '../core/types.js';
import {
  Pagination,
  type WebhookEvent,
  WebhookEventList,
  type WebhookEventListQuery,
  WebhookEventListQuery as WebhookEventListQuerySchema,
  type WebhookRetry,
  WebhookRetry as WebhookRetrySchema,
} from '../schemas/webhooks.js';
import { send } from './shared.js';

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
/** One page of webhook event records. @example const { data, pagination } = await client.webhooks.list({ status: 'failed' }); */
export type WebhookEventPage = z.infer<typeof WebhookEventPage>;

/**
 * The transport resolves to a body's `data`, but the list's `pagination` sits beside `data`. This fetch, used
 * only for the list, folds it in: `{ success, data: [...], pagination }` becomes
 * `{ success, data: { data: [...], pagination } }`. Error answers pass through untouched.
 */
export function foldPagination(base?: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await (base ?? globalThis.fetch)(input, init);
    if (!response.ok) return response;
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    // Plain pairs rather than a Headers object: a Headers from another realm (an interceptor's) would be read as empty.
    const headers: [string, string][] = [];
    response.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'content-encoding') headers.push([name, value]);
    });
    const init2 = { status: response.status, statusText: response.statusText, headers };
    if (
      typeof body !== 'object' ||
      body === null ||
      !('data' in body) ||
      (body as { success?: unknown }).success !== true
    ) {
      return new Response(text, init2);
    }
    const { data, pagination, ...rest } = body as Record<string, unknown>;
    return new Response(JSON.stringify({ ...rest, data: { data, pagination } }), init2);
  };
}

/**
 * Webhook events (spec 2.11, 4.12): list them (one page, or every page with `for await`) and retry one.
 *
 * @example
 * for await (const event of client.webhooks.listAutoPaging({ status: 'failed' })) {
 *   await client.webhooks.retry(event.id);
 * }
 */
export class WebhooksResource {
  constructor(
    private readonly transport: Transport,
    private readonly listTransport: Transport,
  ) {}

  /**
   * `GET /v2/webhooks?page=&limit=&status=` (parameter names assumed, docs/assumptions.md): one page of event
   * records with its `pagination`. `page` from 1, `limit` 1 to 100 (the service's defaults are 1 and 20),
   * `status` one of `pending`, `delivered`, `failed`.
   * @example const { data, pagination } = await client.webhooks.list({ status: 'failed', limit: 50 });
   */
  list(query: WebhookEventListQuery = {}, options?: RequestOptions): ApiPromise<WebhookEventPage> {
    return send(
      this.listTransport,
      () => ({
        method: 'GET',
        path: '/v2/webhooks',
        query,
        querySchema: WebhookEventListQuerySchema,
        dataSchema: WebhookEventPage,
      }),
      options,
    );
  }

  /**
   * Every event record matching `query`, page after page, from `query.page` (default 1). It stops at the last
   * page `pagination` names (or at a short page when the service sends none). For `for await`.
   * @example for await (const event of client.webhooks.listAutoPaging({ status: 'failed' })) console.log(event.id);
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
   * @example const { status, attempts } = await client.webhooks.retry('evt_123');
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
