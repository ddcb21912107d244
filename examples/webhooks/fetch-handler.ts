// A webhook receiver as a fetch handler (Request in, Response out), for edge runtimes and fetch-style frameworks.
// It uses verifyWebhookAsync (WebCrypto), so it needs no node:crypto.
//
//   Next.js route handler (app/webhooks/route.ts):
//     export const POST = createWebhookHandler({ secret: process.env.WEBHOOK_SECRET ?? '', onEvent });
//   Hono:
//     const handler = createWebhookHandler({ secret, onEvent });
//     app.post('/webhooks', (c) => handler(c.req.raw));
//   Cloudflare Workers:
//     export default { fetch: (request, env) => createWebhookHandler({ secret: env.WEBHOOK_SECRET, onEvent })(request) };

import { fileURLToPath } from 'node:url';
import { PayoutClient } from 'inr-payouts';
import { createMockService } from 'inr-payouts/mock';
import { mswHandlers, onUnhandled } from 'inr-payouts/mock/msw';
import {
  createDeduplicator,
  type Deduplicator,
  SIGNATURE_HEADER,
  verifyWebhookAsync,
  type WebhookEvent,
  type WebhookSecret,
  WebhookVerificationError,
} from 'inr-payouts/webhooks';
import { setupServer } from 'msw/node';

export interface WebhookHandlerOptions {
  /** The signing secret from the dashboard, or [new, old] while rotating. */
  secret: WebhookSecret;
  /** Hand the event off quickly (enqueue it); the service times out after 30 s and retries on non-2xx. */
  onEvent: (event: WebhookEvent) => void | Promise<void>;
  /** Per isolate in memory by default; on serverless platforms pass a shared store (see DeduplicationStore). */
  deduplicator?: Deduplicator;
  /** Where rejected deliveries are reported; the error message says what to fix. Default: console.warn. */
  onRejected?: (error: WebhookVerificationError) => void;
}

export function createWebhookHandler(
  options: WebhookHandlerOptions,
): (request: Request) => Promise<Response> {
  const { secret, onEvent, onRejected = (error) => console.warn(error.message) } = options;
  const dedupe = options.deduplicator ?? createDeduplicator();

  return async (request) => {
    if (request.method !== 'POST') return Response.json({ error: 'method_not_allowed' }, { status: 405 });
    let event: WebhookEvent;
    try {
      // The bytes, not request.text(): decoding and re-encoding could alter a body that is not valid UTF-8.
      event = await verifyWebhookAsync(
        await request.arrayBuffer(),
        request.headers.get(SIGNATURE_HEADER),
        secret,
      );
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      onRejected(error);
      return Response.json({ error: error.reason }, { status: 401 }); // spec 6.3.5
    }

    if (await dedupe.seen(event)) return Response.json({ received: true, duplicate: true });
    try {
      await onEvent(event);
    } catch {
      await dedupe.forget(event); // so the service's retry is processed, not dropped as a duplicate
      return Response.json({ error: 'internal_error' }, { status: 500 });
    }
    return Response.json({ received: true });
  };
}

/**
 * Runs this handler against the embedded mock, in-process: the mock hands each signed delivery to the handler
 * as a Request. The mock's clock starts now, so its signatures fall inside the verifier's 300 s tolerance.
 */
export async function main(): Promise<WebhookEvent[]> {
  const mock = createMockService({ startTime: new Date().toISOString() });
  const received: WebhookEvent[] = [];
  const handler = createWebhookHandler({
    secret: mock.webhookSecret,
    onEvent: (event) => {
      received.push(event);
    },
  });
  mock.helpers.accounts.update({ webhookUrl: 'https://partner.example/webhooks' });
  mock.helpers.webhooks.useFetch((url, init) => handler(new Request(url, init)));
  const api = setupServer(...mswHandlers(mock));
  api.listen(onUnhandled('error')); // msw 2 and 3: a request no handler serves fails
  try {
    const client = new PayoutClient({
      apiKey: mock.sandboxKey,
      baseUrl: mock.baseUrl,
      clock: mock.clientClock,
    });
    await client.users.create({ mobile: '9876543210' }); // emits user.created
    await mock.clock.runDue(); // delivers it
    for (const event of received) console.log(`verified ${event.event} (${event.id})`);
    return received;
  } finally {
    api.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
