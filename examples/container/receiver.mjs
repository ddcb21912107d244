// A partner's webhook receiver, as small as it gets: every POST /webhooks is verified with inr-payouts/webhooks
// (the raw body, the X-Service-Signature header, the account's webhook secret) and answered 200, or 401 when it
// does not verify. GET /events lists the verified events, newest last, so a test can wait for one.
//   WEBHOOK_SECRET=whsec_... PORT=8080 node receiver.mjs
import { createServer } from 'node:http';
import { verifyWebhook } from 'inr-payouts/webhooks';

const secret = process.env.WEBHOOK_SECRET;
if (!secret) {
  console.error(
    'Set WEBHOOK_SECRET to the webhook secret the mock prints (or was given with --webhook-secret).',
  );
  process.exit(1);
}
const port = Number(process.env.PORT ?? 8080);
const events = [];

const server = createServer(async (req, res) => {
  if (req.method === 'GET' && req.url === '/events') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(events));
    return;
  }
  if (req.method !== 'POST' || req.url !== '/webhooks') {
    res.writeHead(404).end();
    return;
  }
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  try {
    const event = verifyWebhook(Buffer.concat(chunks), req.headers['x-service-signature'], secret);
    events.push(event);
    console.log(`verified ${event.event} ${event.id}`);
    res.writeHead(200).end();
  } catch (error) {
    console.error(`refused a delivery: ${error.message}`);
    res.writeHead(401).end();
  }
});
// Inside its container: every interface of the container's own network, where the mock reaches it by name.
server.listen(port, process.env.HOST ?? '0.0.0.0', () => console.log(`receiver listening on ${port}`));
for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => server.close(() => process.exit(0)));
