// The three receiver examples (createWebhookHandler behind node:http, Express and fetch), each on a loopback port,
// hit with real HTTP: signed, tampered, unsigned, stale, duplicated, not UTF-8, and with a queue that fails.
// check-receiver grades the same three in test/examples/webhook-receivers.test.ts.
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import express from 'express';
import { signWebhook, type WebhookEvent } from 'inr-payouts/webhooks';
import { afterEach, describe, expect, test } from 'vitest';
import { createWebhookApp, type EventQueue } from '../../examples/webhooks/express.js';
import { webhookReceiver } from '../../examples/webhooks/fetch-handler.js';
import { createWebhookServer } from '../../examples/webhooks/node-http.js';
import { envelope, listen, serveFetch } from '../webhooks/helpers.js';

const SECRET = 'whsec_receiver_secret';

const builders: [string, (queue: EventQueue) => Server][] = [
  ['node:http', (queue) => createWebhookServer(SECRET, queue)],
  ['express', (queue) => createServer(createWebhookApp(SECRET, queue))],
  ['fetch handler', (queue) => serveFetch(webhookReceiver(SECRET, queue))],
];

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function start(build: (queue: EventQueue) => Server) {
  const events: WebhookEvent[] = [];
  let failures = 0;
  const server = build({
    push: (event) => {
      if (failures > 0) {
        failures--;
        throw new Error('queue unavailable');
      }
      events.push(event);
    },
  });
  const { url, close } = await listen(server);
  closers.push(close);
  return { url: `${url}/webhooks`, events, failNext: (n: number) => (failures = n) };
}

function post(url: string, body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string>) {
  return fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
}

// Signed now: the handler verifies against the wall clock.
const now = () => envelope({ timestamp: new Date().toISOString() });
const deliver = (url: string, payload: object, secret = SECRET) => {
  const signed = signWebhook({ payload, secret });
  return post(url, signed.body, { 'x-service-signature': signed.signature });
};

describe.each(builders)('%s receiver', (_, build) => {
  test('a signed event: 200, queued once; its redelivery 200 with duplicate: true, not queued again', async () => {
    const receiver = await start(build);
    const first = await deliver(receiver.url, now());
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true });
    const second = await deliver(receiver.url, now()); // a retry, signed again
    expect(await second.json()).toEqual({ received: true, duplicate: true });
    expect(receiver.events.map((e) => e.id)).toEqual(['evt_1']);
  });

  test('a tampered body, a wrong secret, no header, a stale timestamp: 401 each, nothing queued', async () => {
    const receiver = await start(build);
    const signed = signWebhook({ payload: now(), secret: SECRET });
    const stale = signWebhook({ payload: now(), secret: SECRET, timestamp: signed.timestamp - 301 });
    const responses = await Promise.all([
      post(receiver.url, signed.body.replace('usr_1', 'usr_9'), { 'x-service-signature': signed.signature }),
      deliver(receiver.url, now(), 'whsec_wrong'),
      post(receiver.url, signed.body, {}),
      post(receiver.url, stale.body, { 'x-service-signature': stale.signature }),
    ]);
    expect(responses.map((r) => r.status)).toEqual([401, 401, 401, 401]);
    expect((await Promise.all(responses.map((r) => r.json()))).map((b) => b.error).sort()).toEqual(
      [
        'missing_header',
        'no_matching_signature',
        'no_matching_signature',
        'timestamp_out_of_tolerance',
      ].sort(),
    );
    expect(receiver.events).toEqual([]);
  });

  test('a queue that fails: 500, and the retry is processed rather than dropped as a duplicate', async () => {
    const receiver = await start(build);
    receiver.failNext(1);
    expect((await deliver(receiver.url, now())).status).toBe(500);
    expect((await deliver(receiver.url, now())).status).toBe(200);
    expect(receiver.events.map((e) => e.id)).toEqual(['evt_1']);
  });

  test('event types it does not act on, known or unknown, are acknowledged 200 and not queued', async () => {
    const receiver = await start(build);
    const unknown = await deliver(receiver.url, envelope({ id: 'evt_new', event: 'account.renamed' }));
    expect(unknown.status).toBe(200);
    const sweep = await deliver(receiver.url, {
      ...now(),
      id: 'evt_sweep',
      event: 'transaction.sweep_failed',
    });
    expect(await sweep.json()).toEqual({ received: true, ignored: true });
    expect(receiver.events).toEqual([]);
  });

  test('a byte-exact body that is not UTF-8 text still verifies', async () => {
    const receiver = await start(build);
    // Invalid UTF-8 inside a string: a decode/encode round trip (request.text()) would change these bytes, and
    // the signature covers the bytes, so each receiver must hand the verifier the bytes.
    const prefix = Buffer.from(JSON.stringify({ ...now(), id: 'evt_bytes' }).slice(0, -1));
    const body = Buffer.concat([
      prefix,
      Buffer.from(',"note":"'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}'),
    ]);
    const t = Math.floor(Date.now() / 1000);
    const v1 = createHmac('sha256', SECRET).update(`${t}.`).update(body).digest('hex');
    const response = await post(receiver.url, body, { 'x-service-signature': `t=${t},v1=${v1}` });
    expect(response.status).toBe(200);
    expect(receiver.events.map((e) => e.id)).toEqual(['evt_bytes']);
  });
});

test('express: a JSON body parser in front of the route answers 500, so the service retries after the fix', async () => {
  const events: WebhookEvent[] = [];
  const app = express();
  app.use(express.json()); // the mistake: it parses the body before the webhook route sees it
  app.use(createWebhookApp(SECRET, events));
  const { url, close } = await listen(createServer(app));
  closers.push(close);
  const response = await deliver(`${url}/webhooks`, now());
  expect(response.status).toBe(500);
  expect(await response.json()).toEqual({ error: 'body_parsed_before_handler' });
  expect(events).toEqual([]);
});

test('node:http: oversized bodies are refused before verifying; other paths are 404', async () => {
  const receiver = await start((queue) => createWebhookServer(SECRET, queue));
  const response = await post(receiver.url, 'x'.repeat(1024 * 1024 + 1), {
    'x-service-signature': 't=1,v1=00',
  });
  expect(response.status).toBe(413);
  expect((await post(receiver.url.replace('/webhooks', '/other'), '{}', {})).status).toBe(404);
});
