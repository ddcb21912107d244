// inr-payouts/otel with the OpenTelemetry SDK's in-memory exporter: the spans a partner's collector receives.
import { context, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { PayoutClient } from 'inr-payouts';
import { createMockService } from 'inr-payouts/mock';
import { traceClient, traceWebhookDeliveries } from 'inr-payouts/otel';
import { signWebhook } from 'inr-payouts/webhooks';
import { createWebhookHandler } from 'inr-payouts/webhooks/handler';
import { beforeEach, describe, expect, test } from 'vitest';

// What a partner's SDK set-up registers (NodeSDK does): without it no span has a parent.
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
beforeEach(() => exporter.reset());

const spans = (): ReadableSpan[] => exporter.getFinishedSpans();

describe('client spans', () => {
  test('one CLIENT span per call, with the HTTP conventions, the operation ID and the idempotency key; never the key', async () => {
    const mock = createMockService();
    const client = new PayoutClient({
      apiKey: mock.sandboxKey,
      baseUrl: mock.baseUrl,
      ...traceClient({ tracerProvider, fetch: mock.fetch }),
    });
    const user = await client.users.create({ mobile: '9876543210' });
    await client.kyc.status(user.userId);
    const [create, status] = spans();
    expect(create?.name).toBe('POST /v2/users');
    expect(create?.kind).toBe(SpanKind.CLIENT);
    expect(create?.attributes).toMatchObject({
      'http.request.method': 'POST',
      'url.full': `${mock.baseUrl}/v2/users`,
      'url.template': '/v2/users',
      'http.response.status_code': 201,
      'http.request.resend_count': 0,
      'inr_payouts.operation_id': 'users.create',
    });
    expect(create?.attributes['inr_payouts.idempotency_key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(status?.name).toBe('GET /v2/users/{userId}/kyc/status');
    expect(status?.attributes['inr_payouts.operation_id']).toBe('kyc.status');
    expect(status?.attributes['inr_payouts.idempotency_key']).toBeUndefined();
    expect(JSON.stringify(spans().map((s) => s.attributes))).not.toContain(mock.sandboxKey);
  });

  test('a retried call: one span per attempt, resend_count counting, the 5xx attempts marked as errors', async () => {
    const mock = createMockService();
    mock.helpers.faults.inject({ kind: 'error', status: 503, times: 2 });
    const client = new PayoutClient({
      apiKey: mock.sandboxKey,
      baseUrl: mock.baseUrl,
      clock: mock.clientClock,
      ...traceClient({ tracerProvider, fetch: mock.fetch }),
    });
    await client.account.retrieve();
    const attempts = spans();
    expect(attempts.map((s) => s.attributes['http.request.resend_count'])).toEqual([0, 1, 2]);
    expect(attempts.map((s) => s.attributes['http.response.status_code'])).toEqual([503, 503, 200]);
    expect(attempts.map((s) => s.status.code)).toEqual([
      SpanStatusCode.ERROR,
      SpanStatusCode.ERROR,
      SpanStatusCode.UNSET,
    ]);
    expect(attempts[0]?.attributes['error.type']).toBe('503');
  });

  test('an attempt that fails without an answer ends its span with the error', async () => {
    const client = new PayoutClient({
      apiKey: 'pk_sandbox_test',
      baseUrl: 'http://127.0.0.1:9/',
      maxRetries: 0,
      ...traceClient({ tracerProvider }),
    });
    await expect(client.account.retrieve()).rejects.toThrow();
    const [span] = spans();
    expect(span?.status.code).toBe(SpanStatusCode.ERROR);
    expect(span?.attributes['error.type']).toBeTruthy();
    expect(span?.attributes['http.response.status_code']).toBeUndefined();
  });
});

describe('delivery spans', () => {
  test('one SERVER span per delivery with the event ID and outcome; the function runs inside it', async () => {
    const secret = 'whsec_otel';
    let parentOfWork: string | undefined;
    const handle = createWebhookHandler({
      secret,
      trace: traceWebhookDeliveries({ tracerProvider }),
      on: {
        'user.created': async () => {
          const work = tracerProvider.getTracer('partner').startSpan('save user');
          parentOfWork = work.spanContext().traceId;
          work.end();
        },
      },
    });
    const { body, signature } = signWebhook({
      payload: {
        id: 'evt_otel',
        event: 'user.created',
        timestamp: new Date().toISOString(),
        partnerId: 'p',
        data: {},
      },
      secret,
    });
    const deliver = () =>
      handle(
        new Request('https://partner.example/webhooks', {
          method: 'POST',
          body,
          headers: { 'x-service-signature': signature },
        }),
      );
    await deliver();
    await deliver();
    const deliveries = spans().filter((s) => s.kind === SpanKind.SERVER);
    expect(deliveries.map((s) => s.name)).toEqual(['webhook user.created', 'webhook user.created']);
    expect(deliveries.map((s) => s.attributes['inr_payouts.webhook.event_id'])).toEqual([
      'evt_otel',
      'evt_otel',
    ]);
    expect(deliveries.map((s) => s.attributes['inr_payouts.webhook.outcome'])).toEqual([
      'processed',
      'duplicate',
    ]);
    expect(deliveries.map((s) => s.attributes['http.response.status_code'])).toEqual([200, 200]);
    const work = spans().find((s) => s.name === 'save user');
    expect(work?.parentSpanContext?.spanId).toBe(deliveries[0]?.spanContext().spanId);
    expect(parentOfWork).toBe(deliveries[0]?.spanContext().traceId);
  });
});
