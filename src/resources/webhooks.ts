import { v4 as uuidv4 } from 'uuid';
import type { ApiPromise } from '../core/api-promise.js';
import { Page, PagePromise } from '../core/pagination.js';
import type { Transport } from '../core/transport.js';
import type { RequestOptions } from '../core/types.js';
import type { WebhookEvent, WebhookEventListQuery, WebhookRetry } from '../schemas/webhooks.js';
import {
  SIGNATURE_HEADER,
  type VerifyWebhookOptions,
  type WebhookBody,
  type WebhookSecret,
} from '../webhooks/common.js';
import type { WebhookEvent as WebhookMessage } from '../webhooks/events.js';
import { verifyWebhookAsync } from '../webhooks/verify-async.js';
import { callEndpoint } from './shared.js';

/** The request headers `unwrap` reads the signature from: a fetch `Headers`, or node's `req.headers`. */
export type WebhookHeaders = Headers | Record<string, string | readonly string[] | undefined>;

/** Options of `client.webhooks.unwrap`: the verifier's, and a `secret` over the client's `webhookSecret`. */
export interface UnwrapOptions extends VerifyWebhookOptions {
  secret?: WebhookSecret;
}

function signatureOf(headers: WebhookHeaders): string | readonly string[] | undefined {
  if (headers instanceof Headers) return headers.get(SIGNATURE_HEADER) ?? undefined;
  for (const [name, value] of Object.entries(headers))
    if (name.toLowerCase() === SIGNATURE_HEADER) return value;
  return undefined;
}

/** What `recover` redelivers: events of `statuses` (default `['failed']`) created since `since` (default all). */
export interface RecoverQuery {
  since?: Date | string;
  statuses?: readonly NonNullable<WebhookEventListQuery['status']>[];
}

/** What `client.webhooks.recover` did: the record of each event it asked to redeliver, oldest first. */
export interface RecoverResult {
  retried: WebhookRetry[];
}

// One key per event and attempt count (SHA-256 as a UUID's bits): a rerun replays the retry instead of resending.
async function recoveryKey(event: WebhookEvent): Promise<string> {
  const text = `inr-payouts recover ${event.id} ${event.attempts}`;
  const hash = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return uuidv4({ random: new Uint8Array(hash, 0, 16) });
}

/**
 * Webhooks: `unwrap` verifies one the service sent; the event records (spec 2.11, 4.12) are listed and retried.
 * @example
 * ```ts
 * for await (const event of client.webhooks.list({ status: 'failed' })) {
 *   await client.webhooks.retry(event.id);
 * }
 * ```
 */
export class WebhooksResource {
  constructor(
    private readonly transport: Transport,
    private readonly secret?: WebhookSecret,
  ) {}

  /**
   * Verifies a webhook the service sent (spec 6.3) and returns its event: `verifyWebhookAsync` of
   * `inr-payouts/webhooks` with the client's `webhookSecret`. Pass the raw body, never a parsed object.
   * @example
   * ```ts
   * import { signWebhook } from 'inr-payouts/webhooks';
   * const secret = 'whsec_example';
   * const { body, signature } = signWebhook({ payload: { id: 'evt_1', event: 'user.created', timestamp: '2025-01-01T00:00:00.000Z', partnerId: 'p_1', data: { userId: 'usr_1', createdAt: '2025-01-01T00:00:00.000Z' } }, secret });
   * const event = await client.withOptions({ webhookSecret: secret }).webhooks.unwrap(body, { 'x-service-signature': signature });
   * console.log(event.event); // user.created
   * ```
   */
  unwrap(body: WebhookBody, headers: WebhookHeaders, options: UnwrapOptions = {}): Promise<WebhookMessage> {
    const { secret = this.secret, ...verify } = options;
    // An unset secret reaches the verifier, whose missing_secret error says which variable to set.
    return verifyWebhookAsync(body, signatureOf(headers), secret as WebhookSecret, verify);
  }

  /**
   * `GET /v2/webhooks` (query names assumed, docs/assumptions.md): one {@link Page} of event records, and an async
   * iterable over every record of every page from `query.page`.
   * @example
   * ```ts
   * const { data, pagination } = await client.webhooks.list({ status: 'failed', limit: 50 });
   * for await (const event of client.webhooks.list({ status: 'failed' })) console.log(event.id);
   * ```
   */
  list(query: WebhookEventListQuery = {}, options?: RequestOptions): PagePromise<WebhookEvent> {
    const first = callEndpoint(this.transport, 'webhooks.list', { query }, options);
    return new PagePromise(
      first.outcome().then((outcome) => {
        const { data, pagination } = outcome.data;
        const page = pagination?.page ?? query.page ?? 1;
        // Without `pagination`, a short page is the last.
        const last = pagination ? page >= pagination.totalPages : data.length < (query.limit ?? 20);
        const next = () => this.list({ ...query, page: page + 1 }, options);
        return { ...outcome, data: new Page(data, pagination, last, next) };
      }),
    );
  }

  /**
   * Every event record matching `query`, page after page.
   * @deprecated `list()` is itself async-iterable; this alias stays for one minor version.
   */
  async *listAutoPaging(
    query: WebhookEventListQuery = {},
    options?: RequestOptions,
  ): AsyncGenerator<WebhookEvent, void, undefined> {
    yield* this.list(query, options);
  }

  /**
   * Recovers the events a receiver missed (it was down, or answered non-2xx five times): lists the events of
   * `statuses` created since `since`, then retries each, oldest first, with an Idempotency-Key made from the event
   * ID and its attempt count, so running `recover` twice sends each event once more, not twice (and
   * `createWebhookHandler` processes each once). Listing first keeps a retried event from shifting the pages.
   * @example
   * ```ts
   * await client.users.create({ mobile: '9876543210' }); // an event that no receiver got
   * const { retried } = await client.webhooks.recover({ since: new Date(Date.now() - 3_600_000), statuses: ['pending'] });
   * console.log(retried.map((event) => event.id));
   * ```
   */
  async recover(
    { since = new Date(0), statuses = ['failed'] }: RecoverQuery = {},
    options?: RequestOptions,
  ): Promise<RecoverResult> {
    const from = +new Date(since);
    if (Number.isNaN(from)) throw new TypeError('recover: since must be a Date');
    const found = new Map<string, WebhookEvent>();
    for (const status of statuses) {
      for await (const event of this.list({ status, limit: 100 }, options))
        if (Date.parse(event.createdAt) >= from) found.set(event.id, event);
    }
    const retried: WebhookRetry[] = [];
    // ISO 8601 UTC times order as strings.
    for (const event of [...found.values()].sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1)))
      retried.push(await this.retry(event.id, { ...options, idempotencyKey: await recoveryKey(event) }));
    return { retried };
  }

  /**
   * `POST /v2/webhooks/{eventId}/retry`: delivers the event again now (answer assumed, docs/assumptions.md).
   * @example
   * ```ts
   * await client.users.create({ mobile: '9876543210' }); // emits user.created
   * const [event] = mock.helpers.webhooks.events();
   * if (event) await client.webhooks.retry(event.id);
   * ```
   */
  retry(eventId: string, options?: RequestOptions): ApiPromise<WebhookRetry> {
    return callEndpoint(this.transport, 'webhooks.retry', { params: { eventId } }, options);
  }
}
