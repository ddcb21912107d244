// What NOT to do: the webhook receiver most integrations start with, kept to show what `check-receiver` catches.
// It parses the JSON before verifying (so it checks a re-serialised body, not the bytes that were signed), never
// checks the timestamp (a captured delivery can be replayed for ever), knows one secret (a rotation locks it out)
// and handles every delivery (a redelivery is processed twice). Use node-http.ts (createWebhookHandler from
// inr-payouts/webhooks/handler) instead.
//
//   npx inr-payouts-mock check-receiver http://127.0.0.1:3000/webhooks --secret "$WEBHOOK_SECRET"

import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { checkReceiver, formatReceiverReport, type ReceiverReport } from 'inr-payouts/mock';

export interface NaiveServerOptions {
  secret: string;
  onEvent: (event: { id: string; event: string }) => void | Promise<void>;
}

export function createNaiveWebhookServer(options: NaiveServerOptions): Server {
  return createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    let event: { id: string; event: string };
    try {
      event = JSON.parse(text); // parsed before it is verified
    } catch {
      res.writeHead(400).end();
      return;
    }
    const header = String(req.headers['x-service-signature'] ?? '');
    const t = /t=(\d+)/.exec(header)?.[1];
    const v1 = /v1=([0-9a-f]{64})/.exec(header)?.[1];
    // The HMAC of the re-serialised object, compared with ===, and no look at how old t is.
    const expected = createHmac('sha256', options.secret)
      .update(`${t}.${JSON.stringify(event)}`)
      .digest('hex');
    if (!t || v1 !== expected) {
      res.writeHead(401).end();
      return;
    }
    await options.onEvent(event); // every delivery, duplicates included
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ received: true }));
  });
}

/** Starts the naive receiver on a free loopback port and grades it: several checks fail, as they should. */
export async function main(): Promise<ReceiverReport> {
  const secret = 'whsec_naive_example';
  const server = createNaiveWebhookServer({ secret, onEvent: () => {} });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    const report = await checkReceiver({
      url: `http://127.0.0.1:${port}/webhooks`,
      secret: [secret, 'whsec_naive_example_next'],
      retryDelay: 0,
    });
    console.log(formatReceiverReport(report));
    return report;
  } finally {
    server.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
