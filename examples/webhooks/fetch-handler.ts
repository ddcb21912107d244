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

import {
  createDeduplicator,
  type Deduplicator,
  SIGNATURE_HEADER,
  verifyWebhookAsync,
  type WebhookEvent,
  type WebhookSecret,
  WebhookVerificationError,
} from 'inr-payouts/webhooks';

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
