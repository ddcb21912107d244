// A webhook receiver on plain node:http: collect the raw body, verify, drop duplicates, hand the event off, answer.
//
//   const server = createWebhookServer({ secret: process.env.WEBHOOK_SECRET ?? '', onEvent: (e) => queue.push(e) });
//   server.listen(3000);

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
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

export interface WebhookServerOptions {
  /** The signing secret from the dashboard, or [new, old] while rotating. */
  secret: WebhookSecret;
  /** Hand the event off quickly (enqueue it); the service times out after 30 s and retries on non-2xx. */
  onEvent: (event: WebhookEvent) => void | Promise<void>;
  path?: string;
  deduplicator?: Deduplicator;
  /** Where rejected deliveries are reported; the error message says what to fix. Default: console.warn. */
  onRejected?: (error: WebhookVerificationError) => void;
}

const MAX_BODY_BYTES = 1024 * 1024;

export function createWebhookServer(options: WebhookServerOptions): Server {
  const {
    secret,
    onEvent,
    path = '/webhooks',
    onRejected = (error) => console.warn(error.message),
  } = options;
  const dedupe = options.deduplicator ?? createDeduplicator();

  return createServer(async (req, res) => {
    try {
      if (req.method !== 'POST' || req.url !== path) return reply(res, 404, { error: 'not_found' });
      const body = await readBody(req);
      if (body === undefined) return reply(res, 413, { error: 'body_too_large' });

      let event: WebhookEvent;
      try {
        event = verifyWebhook(body, req.headers[SIGNATURE_HEADER], secret);
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error;
        onRejected(error);
        return reply(res, 401, { error: error.reason }); // spec 6.3.5
      }

      if (await dedupe.seen(event)) return reply(res, 200, { received: true, duplicate: true });
      try {
        await onEvent(event);
      } catch (error) {
        await dedupe.forget(event); // so the service's retry is processed, not dropped as a duplicate
        throw error;
      }
      reply(res, 200, { received: true });
    } catch {
      if (!res.headersSent) reply(res, 500, { error: 'internal_error' });
    }
  });
}

/** The body's exact bytes, or undefined past the size limit. */
async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

function reply(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/**
 * Runs this receiver against the embedded mock: the mock signs its events and POSTs them to it over real HTTP.
 * The mock's clock starts now, so its signatures fall inside the verifier's 300 s tolerance.
 */
export async function main(): Promise<WebhookEvent[]> {
  const mock = createMockService({ startTime: new Date().toISOString() });
  const received: WebhookEvent[] = [];
  const receiver = createWebhookServer({
    secret: mock.webhookSecret,
    onEvent: (event) => {
      received.push(event);
    },
  });
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
