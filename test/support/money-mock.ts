/**
 * Money-flow test support: one MSW server per file that lets loopback requests through (the webhook
 * receiver), a real `PayoutClient` per service, and a `node:http` webhook receiver on 127.0.0.1 that
 * verifies every delivery with `verifyWebhook` against its own wall clock, as a real receiver does.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createMockService, type MockService, type MockServiceOptions } from '../../mock/index.js';
import { mswHandlers } from '../../mock/msw/index.js';
import { PayoutClient } from '../../src/index.js';
import { type KnownWebhookEvent, verifyWebhook } from '../../src/webhooks/index.js';
import { caller } from '../mock/support.js';

/** One delivery as the receiver saw it. */
export interface Received {
  /** Virtual time of the delivery, epoch ms. */
  at: number;
  body: string;
  headers: IncomingHttpHeaders;
  /** The verified event (verification failing fails the test through `errors`). */
  event?: KnownWebhookEvent;
  answered: number;
}

/** A receiver answering with `answers` in turn (the last one repeats). */
export interface Receiver {
  url: string;
  received: Received[];
  errors: unknown[];
  answers: number[];
  close(): Promise<void>;
}

/** Starts a receiver that verifies every delivery against `mock`'s secret and the wall clock. */
export async function startReceiver(mock: () => MockService, answers: number[] = [200]): Promise<Receiver> {
  const receiver: Receiver = { url: '', received: [], errors: [], answers, close: async () => {} };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const service = mock();
      const at = service.clock.now();
      const answered = receiver.answers[receiver.received.length] ?? receiver.answers.at(-1) ?? 200;
      const entry: Received = { at, body, headers: req.headers, answered };
      try {
        entry.event = verifyWebhook(
          body,
          String(req.headers['x-service-signature']),
          service.webhookSecret,
        ) as KnownWebhookEvent;
      } catch (error) {
        receiver.errors.push(error);
      }
      receiver.received.push(entry);
      res.writeHead(answered, { 'content-type': 'text/plain' }).end(answered < 300 ? 'ok' : 'nope');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  receiver.url = `http://127.0.0.1:${port}/hooks`;
  receiver.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return receiver;
}

/** One MSW server for the file; `use()` makes a service, its client and a raw caller. */
export function moneyMock() {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return {
    use(options: MockServiceOptions = {}) {
      const service = createMockService(options);
      server.use(...mswHandlers(service));
      const client = new PayoutClient({
        apiKey: service.sandboxKey,
        baseUrl: service.baseUrl,
        maxRetries: 0,
      });
      return { service, client, call: caller(service) };
    },
  };
}

/** A verified user with a bank account, through the seed shortcut. */
export function verifiedUser(service: MockService, mobile = '9876543210', name = 'Asha Rao'): string {
  return service.helpers.users.seedVerified({ mobile, name }).userId;
}
