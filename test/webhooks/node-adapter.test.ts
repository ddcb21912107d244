// toNodeHandler over real HTTP: plain node:http, Express (with and without a body parser in front) and Fastify.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import Fastify from 'fastify';
import { signWebhook } from 'inr-payouts/webhooks';
import { createWebhookHandler, PARSED_BODY_MESSAGE, toNodeHandler } from 'inr-payouts/webhooks/handler';
import { afterEach, describe, expect, test } from 'vitest';

const secret = 'whsec_adapter_test';
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function receiver() {
  const processed: string[] = [];
  const handle = createWebhookHandler({
    secret,
    on: { 'user.created': async (event) => void processed.push(event.data.userId) },
    onError: () => {},
  });
  return { handle, processed };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function send(url: string, id = 'evt_1') {
  const { body, header } = signWebhook({
    payload: {
      id,
      event: 'user.created',
      timestamp: new Date().toISOString(),
      partnerId: 'p_1',
      data: { userId: `usr_${id}` },
    },
    secret,
  });
  return fetch(`${url}/webhooks`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'x-service-signature': header },
  });
}

describe('toNodeHandler', () => {
  test('node:http: reads the raw body, answers the handler status and body, once per event', async () => {
    const { handle, processed } = receiver();
    const url = await listen(createServer(toNodeHandler(handle)));
    const first = await send(url);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/application\/json/);
    expect(await first.json()).toEqual({ received: true });
    expect(await (await send(url)).json()).toEqual({ received: true, duplicate: true });
    expect(processed).toEqual(['usr_evt_1']);
  });

  test('node:http: a body past maxBodyBytes answers 413', async () => {
    const { handle } = receiver();
    const url = await listen(createServer(toNodeHandler(handle, { maxBodyBytes: 32 })));
    expect((await send(url)).status).toBe(413);
  });

  test('Express with express.json() in front: 500, and the error says how to mount the route', async () => {
    const { handle, processed } = receiver();
    const reported: string[] = [];
    const app = express();
    app.use(express.json());
    app.post('/webhooks', toNodeHandler(handle, { onError: (error) => reported.push(error.message) }));
    const response = await send(await listen(createServer(app)));
    expect(response.status).toBe(500); // not 2xx: the service retries once the route is fixed
    expect(await response.json()).toEqual({ error: 'body_parsed_before_handler' });
    expect(reported).toEqual([PARSED_BODY_MESSAGE]);
    expect(PARSED_BODY_MESSAGE).toMatch(/before express\.json\(\)/);
    expect(processed).toEqual([]);
  });

  test('Express with express.raw() on the route, or no parser at all: processed', async () => {
    const { handle, processed } = receiver();
    const app = express();
    app.post('/webhooks', express.raw({ type: 'application/json' }), toNodeHandler(handle));
    app.post('/plain/webhooks', toNodeHandler(handle));
    const url = await listen(createServer(app));
    expect((await send(url, 'evt_raw')).status).toBe(200);
    expect((await send(`${url}/plain`, 'evt_plain')).status).toBe(200);
    expect(processed).toEqual(['usr_evt_raw', 'usr_evt_plain']);
  });

  test('Fastify: its default JSON parser is diagnosed; a buffer parser works', async () => {
    const parsed = receiver();
    const reported: string[] = [];
    const app = Fastify();
    app.post('/webhooks', toNodeHandler(parsed.handle, { onError: (error) => reported.push(error.message) }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    closers.push(() => app.close());
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    expect((await send(url)).status).toBe(500);
    expect(reported).toEqual([PARSED_BODY_MESSAGE]);

    const raw = receiver();
    const rawApp = Fastify();
    await rawApp.register(async (scope) => {
      scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) =>
        done(null, body),
      );
      scope.post('/webhooks', toNodeHandler(raw.handle));
    });
    await rawApp.listen({ port: 0, host: '127.0.0.1' });
    closers.push(() => rawApp.close());
    const rawUrl = `http://127.0.0.1:${(rawApp.server.address() as AddressInfo).port}`;
    const ok = await send(rawUrl);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ received: true });
    expect(raw.processed).toEqual(['usr_evt_1']);
  });
});
