// A webhook receiver on Express 5: `createWebhookHandler` behind `toNodeHandler`, which hands it the raw body.
// The one rule: mount the webhook route before express.json(), which would consume the body the signature covers
// (the adapter then answers 500 and logs how to mount it).
//
//   const app = createWebhookApp(process.env.INR_PAYOUTS_WEBHOOK_SECRET ?? '', queue);
//   app.use(express.json()); // the rest of the app may parse JSON: it comes after the webhook route
//   app.listen(3000);
//
//   npx inr-payouts-mock check-receiver http://127.0.0.1:3000/webhooks --secret "$INR_PAYOUTS_WEBHOOK_SECRET"
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import express, { type Express } from 'express';
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

/** An app with POST /webhooks; each event of the types listed goes to `queue` once, however often delivered. */
export function createWebhookApp(secret: WebhookSecret, queue: EventQueue): Express {
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
  const app = express();
  app.post('/webhooks', toNodeHandler(handle)); // before any app.use(express.json())
  return app;
}

/**
 * Runs this receiver against the embedded mock: the mock signs its events and POSTs them to it over real HTTP.
 * Its signatures carry the wall clock, so they fall inside the verifier's 300 s tolerance.
 */
export async function main(): Promise<WebhookEvent[]> {
  const mock = createMockService();
  const received: WebhookEvent[] = [];
  const receiver = createWebhookApp(mock.webhookSecret, received).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => receiver.once('listening', resolve));
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
