// A webhook receiver on Express 5. The one rule: this route gets the raw body. express.raw() leaves req.body a
// Buffer of the exact bytes; an express.json() that runs first would parse the body and the signature could no
// longer be checked (verifyWebhook then fails with reason body_not_raw and says so).
//
//   const app = express();
//   app.post('/webhooks', express.raw({ type: 'application/json' }), webhookHandler({ secret, onEvent }));
//   app.use(express.json()); // the rest of the app may parse JSON: it is mounted after the webhook route
//   app.listen(3000);

import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import express, { type Express, type RequestHandler } from 'express';
import { PayoutClient } from 'inr-payouts';
import { createMockService } from 'inr-payouts/mock';
import { mswHandlers, onUnhandled } from 'inr-payouts/mock/msw';
import {
  createDeduplicator,
  type Deduplicator,
  SIGNATURE_HEADER,
  verifyWebhook,
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
  deduplicator?: Deduplicator;
  /** Where rejected deliveries are reported; the error message says what to fix. Default: console.warn. */
  onRejected?: (error: WebhookVerificationError) => void;
}

/** The route handler; mount it after `express.raw({ type: 'application/json' })`. */
export function webhookHandler(options: WebhookHandlerOptions): RequestHandler {
  const { secret, onEvent, onRejected = (error) => console.warn(error.message) } = options;
  const dedupe = options.deduplicator ?? createDeduplicator();

  return async (req, res) => {
    let event: WebhookEvent;
    try {
      event = verifyWebhook(req.body, req.get(SIGNATURE_HEADER), secret);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      onRejected(error);
      res.status(401).json({ error: error.reason }); // spec 6.3.5
      return;
    }

    if (await dedupe.seen(event)) {
      res.json({ received: true, duplicate: true });
      return;
    }
    try {
      await onEvent(event);
    } catch (error) {
      await dedupe.forget(event); // so the service's retry is processed, not dropped as a duplicate
      throw error; // Express 5 answers 500 for a rejected handler
    }
    res.json({ received: true });
  };
}

/** An app with the webhook route at `path` (default `/webhooks`), raw body included. */
export function createWebhookApp(options: WebhookHandlerOptions & { path?: string }): Express {
  const app = express();
  app.post(
    options.path ?? '/webhooks',
    express.raw({ type: 'application/json', limit: '1mb' }),
    webhookHandler(options),
  );
  return app;
}

/**
 * Runs this receiver against the embedded mock: the mock signs its events and POSTs them to it over real HTTP.
 * The mock's clock starts now, so its signatures fall inside the verifier's 300 s tolerance.
 */
export async function main(): Promise<WebhookEvent[]> {
  const mock = createMockService({ startTime: new Date().toISOString() });
  const received: WebhookEvent[] = [];
  const app = createWebhookApp({
    secret: mock.webhookSecret,
    onEvent: (event) => {
      received.push(event);
    },
  });
  const receiver = app.listen(0, '127.0.0.1');
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
