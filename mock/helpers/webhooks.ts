/**
 * Webhook helpers: every delivery attempt as sent (raw body, headers, answer) for assertions, the recorded
 * events, and an in-process receiver in place of the real HTTP POST.
 */
import { type SignedWebhook, signWebhook, type WebhookEventType } from '../../src/webhooks/index.js';
import { MockHelperError } from '../engine/errors.js';
import type { ServiceInternals } from '../engine/internals.js';
import { triggerEvent } from '../operations/synthetic-events.js';
import type { WebhookFetch } from '../operations/webhooks.js';
import type { DeliveryAttempt, WebhookEventRecord } from '../state/webhooks.js';
import { accountOf } from './lookup.js';

/**
 * One captured delivery attempt: what was sent (`body`, `headers`) and what the receiver answered (`status`,
 * `responseBody`), with the event's ID and type under the envelope's names.
 */
export interface CapturedDelivery extends DeliveryAttempt {
  eventId: string;
  /** The event type, as the envelope names it (`event`). */
  event: WebhookEventRecord['eventType'];
  /** @deprecated The same value as `event` (the name `GET /v2/webhooks` gives it, spec 2.11). */
  eventType: WebhookEventRecord['eventType'];
}

/** A recorded event as the helpers give it, its type named `event` as in the envelope (and as before). */
export type WebhookEventView = Omit<WebhookEventRecord, 'eventType'> &
  Pick<CapturedDelivery, 'event' | 'eventType'>;

export function webhookHelpers(mock: ServiceInternals) {
  return {
    /**
     * Signs any payload with the account's webhook secret as a delivery would (spec 6.3), at the virtual time
     * unless `timestamp` (Unix seconds) is given: the exact body (a string payload is kept as is, anything else
     * is JSON text) and the headers to send with it. For receivers written in other languages.
     * @example
     * ```ts
     * const signed = mock.helpers.webhooks.sign({ payload: { id: 'evt_1', event: 'user.created' } });
     * console.log(signed.headers['x-service-signature'].startsWith('t=')); // true
     * ```
     */
    sign({
      payload,
      accountId,
      timestamp,
    }: {
      payload: unknown;
      accountId?: string;
      timestamp?: number;
    }): SignedWebhook & {
      headers: { 'content-type': string; 'x-service-signature': string };
    } {
      const signed = signWebhook({
        payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
        secret: accountOf(mock, accountId).webhookSecret,
        timestamp: timestamp ?? Math.floor(mock.state.clock.now / 1000),
      });
      return {
        ...signed,
        headers: { 'content-type': 'application/json', 'x-service-signature': signed.signature },
      };
    },
    /**
     * Sends an event of any type through the real delivery (signed, recorded, retried on the clock): a sample
     * payload of that type with `data`'s fields laid over it. The event is marked `synthetic`: it stands for
     * no stored user or transaction and changes nothing stored. Answers the event record.
     * @example
     * ```ts
     * const event = mock.helpers.webhooks.trigger({ type: 'transaction.payout_failed', data: { code: 'BANK_ACCOUNT_INVALID' } });
     * console.log(event.synthetic, event.envelope.data.code); // true 'BANK_ACCOUNT_INVALID'
     * ```
     */
    trigger({
      type,
      data,
      accountId,
    }: {
      type: WebhookEventType;
      data?: Record<string, unknown>;
      accountId?: string;
    }): WebhookEventView {
      const record = triggerEvent(mock.state, accountOf(mock, accountId).id, type, data);
      return { ...structuredClone(record), event: record.eventType };
    },
    /**
     * Every delivery attempt so far, in the order made, with its exact signed body and headers.
     * @example
     * ```ts
     * import { createMockService } from 'inr-payouts/mock';
     * import { mswHandlers } from 'inr-payouts/mock/msw';
     *
     * const mock = createMockService();
     * if (mock.helpers.webhooks.captured().length !== 0) throw new Error('nothing sent yet');
     * ```
     */
    captured(): CapturedDelivery[] {
      const all = Object.values(mock.state.webhooks.byId).flatMap((e) =>
        e.deliveries.map((d) => ({
          ...structuredClone(d),
          eventId: e.id,
          event: e.eventType,
          eventType: e.eventType,
        })),
      );
      return all.sort((a, b) => a.at.localeCompare(b.at));
    },
    /**
     * The recorded events (with their envelopes), oldest first; `type` filters.
     * @example
     * ```ts
     * const completed = mock.helpers.webhooks.events({ type: 'transaction.payout_completed' });
     * ```
     */
    events({ type }: { type?: WebhookEventRecord['eventType'] } = {}): WebhookEventView[] {
      return Object.values(mock.state.webhooks.byId)
        .filter((e) => !type || e.eventType === type)
        .map((e) => ({ ...structuredClone(e), event: e.eventType }));
    },
    /**
     * Sends every delivery due now (attempt 1 of an event just emitted, a retry asked for with
     * `client.webhooks.retry`), then resolves once none is in flight: each one answered or timed out (30 s of
     * real time at most), and the retries that fell due meanwhile sent and settled too. It never moves the
     * clock: a retry scheduled for later waits for `clock.advance`. `clock.advance` already waits for
     * deliveries up to the service's `webhookWaitMs`; call this after a request that emits an event, where a
     * receiver may answer later than that (or on a clock with `webhookWaitMs: 0`), and before the test asserts
     * on what the deliveries recorded. Over HTTP: `POST /__mock/webhooks/settle`.
     * @example
     * ```ts
     * import { setupServer } from 'msw/node';
     * import { createMockService } from 'inr-payouts/mock';
     * import { mswHandlers } from 'inr-payouts/mock/msw';
     *
     * const mock = createMockService({ webhookWaitMs: 0, account: { webhookUrl: 'https://partner.test/hooks' } });
     * const server = setupServer(...mswHandlers(mock));
     * server.listen();
     * mock.helpers.webhooks.useFetch(async () => new Response('ok'));
     * await fetch(`${mock.baseUrl}/v2/users`, {
     *   method: 'POST',
     *   headers: { Authorization: `Bearer ${mock.sandboxKey}` },
     *   body: JSON.stringify({ mobile: '9876543210' }),
     * }); // emits user.created; attempt 1 is due now
     * await mock.helpers.webhooks.settle(); // sends it and waits for the answer
     * if (mock.helpers.webhooks.events()[0]?.status !== 'delivered') throw new Error('delivered by now');
     * server.close();
     * ```
     */
    async settle(): Promise<void> {
      // What is due now goes out first: a delivery scheduled at the current time (attempt 1 of a fresh event,
      // a retry asked for by `webhooks.retry`) is not in flight until its timer runs. Run in order, each answer
      // waited for as `runDue` does, so the journal's order is the same in a replay.
      await mock.engineClock.runDue();
      while (mock.background.size > 0) {
        await Promise.allSettled([...mock.background.keys()]);
        await mock.engineClock.runDue({ wait: false });
      }
    },
    /**
     * Answers deliveries in-process with `fetcher` instead of a real POST (`undefined` restores `fetch`).
     * The account still needs a `webhookUrl`; it is passed to `fetcher`.
     * @example
     * ```ts
     * import { setupServer } from 'msw/node';
     * import { createMockService } from 'inr-payouts/mock';
     * import { mswHandlers } from 'inr-payouts/mock/msw';
     *
     * const mock = createMockService({ account: { webhookUrl: 'https://partner.test/hooks' } });
     * const server = setupServer(...mswHandlers(mock));
     * server.listen();
     * let calls = 0;
     * // Fails twice (500), then accepts.
     * mock.helpers.webhooks.useFetch(async () => new Response(null, { status: ++calls < 3 ? 500 : 200 }));
     * await fetch(`${mock.baseUrl}/v2/users`, {
     *   method: 'POST',
     *   headers: { Authorization: `Bearer ${mock.sandboxKey}` },
     *   body: JSON.stringify({ mobile: '9876543210' }),
     * }); // emits user.created
     * await mock.clock.advance('1m');
     * const times = mock.helpers.webhooks.captured().map((d) => `${d.at.slice(17, 19)}s ${d.status}`);
     * if (times.join(', ') !== '00s 500, 01s 500, 03s 200') throw new Error(times.join(', '));
     * server.close();
     * ```
     */
    useFetch(fetcher: WebhookFetch | undefined): void {
      if (fetcher !== undefined && typeof fetcher !== 'function')
        throw new MockHelperError('useFetch takes a function (url, init) => Promise<Response>, or undefined');
      mock.webhookFetch = fetcher;
    },
  };
}
