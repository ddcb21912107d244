// The three receiver examples, each on a loopback port, hit with real HTTP: signed, tampered, unsigned, stale,
// duplicated, and with a failing handler.
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import express from 'express';
import { signWebhook, type WebhookEvent, type WebhookVerificationError } from 'inr-payouts/webhooks';
import { afterEach, describe, expect, test } from 'vitest';
import { createWebhookApp, webhookHandler } from '../../examples/webhooks/express.js';
import { createWebhookHandler } from '../../examples/webhooks/fetch-handler.js';
import { createWebhookServer } from '../../examples/webhooks/node-http.js';
import { envelope, listen, serveFetch } from './helpers.js';

const SECRET = 'whsec_receiver_secret';

interface Receiver {
  url: string;
  events: WebhookEvent[];
  rejected: WebhookVerificationError[];
  /** Make the next onEvent calls throw. */
  failNext: (times: number) => void;
}

type Options = {
  secret: string;
  onEvent: (event: WebhookEvent) => Promise<void>;
  onRejected: (error: WebhookVerificationError) => void;
};

const builders: [string, (options: Options) => Server][] = [
  ['node:http', (options) => createWebhookServer(options)],
  ['express', (options) => createServer(createWebhookApp(options))],
  ['fetch handler', (options) => serveFetch(createWebhookHandler(options))],
];

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function start(build: (options: Options) => Server): Promise<Receiver> {
  const events: WebhookEvent[] = [];
  const rejected: WebhookVerificationError[] = [];
  let failures = 0;
  const server = build({
    secret: SECRET,
    onEvent: async (event) => {
      if (failures > 0) {
        failures--;
        throw new Error('queue unavailable');
      }
      events.push(event);
    },
    onRejected: (error) => rejected.push(error),
  });
  const { url, close } = await listen(server);
  closers.push(close);
  return { url: `${url}/webhooks`, events, rejected, failNext: (n) => (failures = n) };
}

function post(url: string, body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string>) {
  return fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
}

const deliver = (url: string, payload: object, secret = SECRET) => {
  const signed = signWebhook({ payload, secret });
  return post(url, signed.body, { 'x-service-signature': signed.header, 'x-service-event-id': 'evt_1' });
};

describe.each(builders)('%s receiver', (_, build) => {
  test('a signed event: 200, handed to onEvent once', async () => {
    const receiver = await start(build);
    const response = await deliver(receiver.url, envelope());
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true });
    expect(receiver.events).toEqual([envelope()]);
  });

  test('a tampered body: 401, nothing handled', async () => {
    const receiver = await start(build);
    const signed = signWebhook({ payload: envelope(), secret: SECRET });
    const response = await post(receiver.url, signed.body.replace('usr_1', 'usr_9'), {
      'x-service-signature': signed.header,
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'no_matching_signature' });
    expect(receiver.events).toEqual([]);
    expect(receiver.rejected.map((e) => e.reason)).toEqual(['no_matching_signature']);
  });

  test('a tampered signature, a wrong secret, no header, a stale timestamp: 401 each', async () => {
    const receiver = await start(build);
    const signed = signWebhook({ payload: envelope(), secret: SECRET });
    const stale = signWebhook({ payload: envelope(), secret: SECRET, timestamp: signed.timestamp - 301 });
    const responses = await Promise.all([
      post(receiver.url, signed.body, { 'x-service-signature': signed.header.replace(/v1=./, 'v1=x') }),
      deliver(receiver.url, envelope(), 'whsec_wrong'),
      post(receiver.url, signed.body, {}),
      post(receiver.url, stale.body, { 'x-service-signature': stale.header }),
    ]);
    expect(responses.map((r) => r.status)).toEqual([401, 401, 401, 401]);
    expect(receiver.rejected.map((e) => e.reason).sort()).toEqual(
      ['malformed_header', 'missing_header', 'no_matching_signature', 'timestamp_out_of_tolerance'].sort(),
    );
    expect(receiver.events).toEqual([]);
  });

  test('a redelivery of the same event: 200, handled once', async () => {
    const receiver = await start(build);
    const first = await deliver(receiver.url, envelope());
    const second = await deliver(receiver.url, envelope({ timestamp: 'later' })); // a retry, re-signed
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(await second.json()).toEqual({ received: true, duplicate: true });
    expect(receiver.events.map((e) => e.id)).toEqual(['evt_1']);
  });

  test('a failing handler: 500, and the retry is processed rather than dropped as a duplicate', async () => {
    const receiver = await start(build);
    receiver.failNext(1);
    expect((await deliver(receiver.url, envelope())).status).toBe(500);
    expect((await deliver(receiver.url, envelope())).status).toBe(200);
    expect(receiver.events.map((e) => e.id)).toEqual(['evt_1']);
  });

  test('unknown event types are acknowledged, not rejected', async () => {
    const receiver = await start(build);
    const response = await deliver(receiver.url, envelope({ id: 'evt_new', event: 'account.renamed' }));
    expect(response.status).toBe(200);
    expect(receiver.events.map((e) => e.event)).toEqual(['account.renamed']);
  });

  test('a byte-exact body that is not UTF-8 text still verifies', async () => {
    const receiver = await start(build);
    // Invalid UTF-8 inside a string: a decode/encode round trip (request.text()) would change these bytes, and
    // the signature covers the bytes, so each receiver must hand the verifier the bytes.
    const prefix = Buffer.from(JSON.stringify(envelope({ id: 'evt_bytes' })).slice(0, -1));
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

test('express: a JSON body parser in front of the handler is reported as body_not_raw', async () => {
  const events: WebhookEvent[] = [];
  const rejected: WebhookVerificationError[] = [];
  const app = express();
  app.use(express.json()); // the mistake: it parses the body before the webhook route sees it
  app.post(
    '/webhooks',
    webhookHandler({
      secret: SECRET,
      onEvent: (e) => void events.push(e),
      onRejected: (e) => void rejected.push(e),
    }),
  );
  const { url, close } = await listen(createServer(app));
  closers.push(close);
  const response = await deliver(`${url}/webhooks`, envelope());
  expect(response.status).toBe(401);
  expect(rejected[0]?.reason).toBe('body_not_raw');
  expect(rejected[0]?.message).toMatch(/parsed object.*express\.raw/);
  expect(events).toEqual([]);
});

test('node:http: oversized bodies are refused before verifying', async () => {
  const receiver = await start(createWebhookServer);
  const response = await post(receiver.url, 'x'.repeat(1024 * 1024 + 1), {
    'x-service-signature': 't=1,v1=00',
  });
  expect(response.status).toBe(413);
});
