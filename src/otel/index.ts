/**
 * `inr-payouts/otel`: OpenTelemetry spans for the client's calls (on ky's hooks) and for each webhook delivery
 * (on `createWebhookHandler`'s `trace` option). `@opentelemetry/api` is an optional peer dependency: install it
 * (and an SDK) to use this entry; the other entries never load it.
 * @packageDocumentation
 * @module inr-payouts/otel
 */

import {
  context,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import type { Hooks } from 'ky';
import { hookViewOf } from '../shared/sent-request.js';
import type { DeliveryTrace } from '../webhooks/handler/handler.js';

/** Options of {@link traceClient} and {@link traceWebhookDeliveries}. */
export interface TracingOptions {
  /** Default: the global provider (`trace.getTracerProvider()`), as registered by the partner's SDK. */
  tracerProvider?: TracerProvider;
}

/** What {@link traceClient} gives a `PayoutClient`: spread it into the options. */
export interface ClientTracing {
  /** Start a span per attempt, end it with the answer's status. */
  hooks: Hooks;
  /** The `fetch` ky calls, wrapped to end an attempt's span when it fails without an answer (network, time-out). */
  fetch: typeof fetch;
}

/** Attribute names of this package's own facts (the rest are OpenTelemetry's HTTP semantic conventions). */
export const ATTRIBUTES = {
  operationId: 'inr_payouts.operation_id',
  idempotencyKey: 'inr_payouts.idempotency_key',
  eventId: 'inr_payouts.webhook.event_id',
  eventType: 'inr_payouts.webhook.event_type',
  outcome: 'inr_payouts.webhook.outcome',
} as const;

const NAME = 'inr-payouts';
const tracerOf = (options: TracingOptions): Tracer =>
  (options.tracerProvider ?? trace.getTracerProvider()).getTracer(NAME);

/**
 * Client spans for every attempt of every call, on ky's hooks: kind CLIENT, named `<method> <path template>`
 * (`POST /v2/transactions`), with the HTTP semantic conventions (`http.request.resend_count` is the retry count)
 * and `inr_payouts.operation_id` and `inr_payouts.idempotency_key`. No header is recorded, so the API key never
 * reaches a span. Pass the client's own `fetch` here if it has one.
 * @example
 * ```ts
 * import { PayoutClient } from 'inr-payouts';
 * import { traceClient } from 'inr-payouts/otel';
 * const traced = new PayoutClient({ apiKey: mock.sandboxKey, baseUrl: mock.baseUrl, ...traceClient() });
 * await traced.account.retrieve(); // one CLIENT span per attempt, under the active context
 * ```
 */
export function traceClient(options: TracingOptions & { fetch?: typeof fetch } = {}): ClientTracing {
  const tracer = tracerOf(options);
  const base = options.fetch ?? ((input, init) => fetch(input, init));
  // Open spans by each call's `context`: afterResponse sees ky's clone of the Request that `fetch` gets.
  const spans = new WeakMap<object, Span>();
  const calls = new WeakMap<Request, object>();
  const finish = (call: object | undefined, status: number | undefined, error?: unknown) => {
    const span = call && spans.get(call);
    if (call === undefined || span === undefined) return;
    spans.delete(call);
    if (status !== undefined) span.setAttribute('http.response.status_code', status);
    if (error !== undefined || (status !== undefined && status >= 400)) {
      const type = status !== undefined && status >= 400 ? String(status) : errorType(error);
      span.setAttribute('error.type', type);
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : type });
    }
    span.end();
  };
  return {
    hooks: {
      beforeRequest: [
        (request, kyOptions, { retryCount }) => {
          const url = new URL(request.url);
          const { operationId, urlTemplate } = kyOptions.context as {
            operationId?: string;
            urlTemplate?: string;
          };
          const attributes: Record<string, string | number> = {
            'http.request.method': request.method,
            'url.full': url.href,
            'server.address': url.hostname,
            'server.port': Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
            'http.request.resend_count': retryCount,
          };
          if (urlTemplate !== undefined) attributes['url.template'] = urlTemplate;
          if (operationId !== undefined) attributes[ATTRIBUTES.operationId] = operationId;
          const key = request.headers.get('idempotency-key');
          if (key !== null) attributes[ATTRIBUTES.idempotencyKey] = key;
          const name = urlTemplate === undefined ? request.method : `${request.method} ${urlTemplate}`;
          spans.set(kyOptions.context, tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }));
          calls.set(request, kyOptions.context);
        },
      ],
      afterResponse: [(_request, kyOptions, response) => finish(kyOptions.context, response.status)],
    },
    fetch: (input, init) => {
      const request = input instanceof Request ? input : undefined;
      const sent = base(input, init);
      return request === undefined
        ? sent
        : sent.catch((error: unknown) => {
            finish(calls.get(hookViewOf(request)), undefined, error);
            throw error;
          });
    },
  };
}

const errorType = (error: unknown): string =>
  error instanceof Error && error.name !== 'Error' ? error.name : 'fetch_failed';

/**
 * A span per webhook delivery, for `createWebhookHandler({ trace })`: kind SERVER, named `webhook <event type>`,
 * with the HTTP semantic conventions and the {@link ATTRIBUTES} of the event and its `outcome` (`processed`,
 * `duplicate`, `in_progress`, ...). The partner's function runs inside the span, so its spans are children of it
 * where a context manager is registered (`NodeSDK` registers one; with `sdk-trace-base` alone, register
 * `AsyncLocalStorageContextManager` from `@opentelemetry/context-async-hooks`).
 * @example
 * ```ts
 * import { createWebhookHandler } from 'inr-payouts/webhooks/handler';
 * import { traceWebhookDeliveries } from 'inr-payouts/otel';
 * const handle = createWebhookHandler({
 *   secret: 'whsec_example',
 *   on: { 'user.created': async (event) => console.log(event.data.userId) },
 *   trace: traceWebhookDeliveries(),
 * });
 * ```
 */
export function traceWebhookDeliveries(options: TracingOptions = {}): (request: Request) => DeliveryTrace {
  const tracer = tracerOf(options);
  return (request) => {
    const span = tracer.startSpan('webhook', {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': request.method, 'url.path': new URL(request.url).pathname },
    });
    return {
      event(event) {
        span.updateName(`webhook ${event.event}`);
        span.setAttribute(ATTRIBUTES.eventId, event.id);
        span.setAttribute(ATTRIBUTES.eventType, event.event);
      },
      run: (fn) => context.with(trace.setSpan(context.active(), span), fn),
      end(status, outcome, error) {
        span.setAttribute('http.response.status_code', status);
        span.setAttribute(ATTRIBUTES.outcome, outcome);
        if (error !== undefined) span.recordException(error instanceof Error ? error : String(error));
        // A 409 (in progress elsewhere) and a 401 are answers, not this receiver's failures.
        if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      },
    };
  };
}
