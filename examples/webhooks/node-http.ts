// A webhook receiver on plain node:http: `createWebhookHandler` verifies the raw body, runs your function once per
// event and answers; `toNodeHandler` reads node's request for it, within its body limits.
//
//   const server = createWebhookServer(process.env.INR_PAYOUTS_WEBHOOK_SECRET ?? '', queue);
//   server.listen(3000);
//
//   npx inr-payouts-mock check-receiver http://127.0.0.1:3000/webhooks --secret "$INR_PAYOUTS_WEBHOOK_SECRET"
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { PayoutClient } from 'inr-payouts';
import { createMockService } from 'inr-payouts/mock';
import { mswHandlers, onUnhandled } from 'inr-payouts/mock/msw';
import type { WebhookEvent, WebhookSecret } from 'inr-payouts/webhooks';
import { createWebhookHandler, toNodeHandler } from 'inr-payouts/webhooks/handler';
import { setupServer } from 'msw/node';

/** Where verified events go: your queue. A push that throws answers 500, and the service delivers the event again. */
export interface EventQueue {
  push(event: WebhookEvent): unknown;
}

/** The server: POST /webhooks; each event of the types listed goes to `queue` once, however often it is delivered. */
export function createWebhookServer(secret: WebhookSecret, queue: EventQueue): Server {
  const handle = createWebhookHandler({
    secret, // or [newSecret, oldSecret] while rotating
    // Hand each event off quickly: the service gives up after 30 s and retries any answer outside 200-299.
    on: {
      'user.created': async (event) => void (await queue.push(event)),
      'user.kyc_updated': async (event) => void (await queue.push(event)),
      'transaction.payout_completed': async (event) => void (await queue.push(event)),
      'transaction.payout_failed': async (event) => void (await queue.push(event)),
    },
  });
  const webhooks = toNodeHandler(handle);
  return createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/webhooks') return void webhooks(req, res);
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not_found"}');
  });
}

/**
 * Runs this receiver against the embedded mock: the mock signs its events and POSTs them to it over real HTTP.
 * Its signatures carry the wall clock, so they fall inside the verifier's 300 s tolerance.
 */
export async function main(): Promise<WebhookEvent[]> {
  const mock = createMockService();
  const received: WebhookEvent[] = [];
  const receiver = createWebhookServer(mock.webhookSecret, received);
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  mock.helpers.accounts.update({ webhookUrl: `http://127.0.0.1:${port}/webhooks` });
  const api = setupServer(...mswHandlers(mock));
  api.listen(onUnhandled('bypass')); // the deliveries go out for real
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
    receiver.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
