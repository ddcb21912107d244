// A webhook receiver as a fetch handler (Request in, Response out), for Next.js route handlers, Hono, Bun, Deno and
// Workers: `createWebhookHandler` verifies on WebCrypto (no node:crypto), runs your function once per event and
// answers as the service's retries need.
//
//   Next.js route handler (app/webhooks/route.ts):
//     export const POST = webhookReceiver(process.env.INR_PAYOUTS_WEBHOOK_SECRET ?? '', queue);
//   Hono:
//     const handle = webhookReceiver(secret, queue);
//     app.post('/webhooks', (c) => handle(c.req.raw));
//   Cloudflare Workers (build the handler once per isolate, not per request):
//     let handle; export default { fetch: (request, env) => (handle ??= webhookReceiver(env.WEBHOOK_SECRET, queue))(request) };
//
//   npx inr-payouts-mock check-receiver http://127.0.0.1:3000/webhooks --secret "$INR_PAYOUTS_WEBHOOK_SECRET"
import { fileURLToPath } from 'node:url';
import { PayoutClient } from 'inr-payouts';
import { createMockService } from 'inr-payouts/mock';
import { mswHandlers, onUnhandled } from 'inr-payouts/mock/msw';
import type { WebhookEvent, WebhookSecret } from 'inr-payouts/webhooks';
import { createWebhookHandler } from 'inr-payouts/webhooks/handler';
import { setupServer } from 'msw/node';

/** Where verified events go: your queue. A push that throws answers 500, and the service delivers the event again. */
export interface EventQueue {
  push(event: WebhookEvent): unknown;
}

/**
 * The receiver: each event of the types listed goes to `queue` once, however often it is delivered (the default
 * store is this process's memory: give several replicas `postgresWebhookStore` or `redisWebhookStore`).
 */
export function webhookReceiver(
  secret: WebhookSecret,
  queue: EventQueue,
): (request: Request) => Promise<Response> {
  return createWebhookHandler({
    secret, // or [newSecret, oldSecret] while rotating
    // Hand each event off quickly: the service gives up after 30 s and retries any answer outside 200-299.
    on: {
      'user.created': async (event) => void (await queue.push(event)),
      'user.kyc_updated': async (event) => void (await queue.push(event)),
      'transaction.payout_completed': async (event) => void (await queue.push(event)),
      'transaction.payout_failed': async (event) => void (await queue.push(event)),
    },
  });
}

/**
 * Runs this handler against the embedded mock, in-process: the mock hands each signed delivery to the handler
 * as a Request. Its signatures carry the wall clock, so they fall inside the verifier's 300 s tolerance.
 */
export async function main(): Promise<WebhookEvent[]> {
  const mock = createMockService();
  const received: WebhookEvent[] = [];
  const handle = webhookReceiver(mock.webhookSecret, received);
  mock.helpers.accounts.update({ webhookUrl: 'https://partner.example/webhooks' });
  mock.helpers.webhooks.useFetch((url, init) => handle(new Request(url, init)));
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
