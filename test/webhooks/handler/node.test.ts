// toNodeHandler over real HTTP: plain node:http, Express (with and without a body parser in front) and Fastify.
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import {
  createWebhookHandler,
  PARSED_BODY_MESSAGE,
  toNodeHandler,
  type WebhookHandlerOptions,
} from 'inr-payouts/webhooks/handler';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { postSigned, signedUserCreated } from '../../support/webhook-delivery.js';

// Any rejection nobody handled: on node:http it is what ends the process.
const unhandled: unknown[] = [];
const record = (reason: unknown) => void unhandled.push(reason);
process.on('unhandledRejection', record);
afterAll(() => void process.off('unhandledRejection', record));

const secret = 'whsec_adapter_test';
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function receiver(options: Partial<WebhookHandlerOptions> = {}) {
  const processed: string[] = [];
  const handle = createWebhookHandler({
    secret,
    on: { 'user.created': async (event) => void processed.push(event.data.userId) },
    onError: () => {},
    logLevel: 'off',
    ...options,
  });
  return { handle, processed };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function send(url: string, id = 'evt_1') {
  return postSigned(`${url}/webhooks`, signedUserCreated(id, secret, `usr_${id}`));
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

  test("node:http: a body past the handler's maxBodyBytes answers 413", async () => {
    const { handle } = receiver({ maxBodyBytes: 32 });
    const url = await listen(createServer(toNodeHandler(handle)));
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

/**
 * A request written by hand on a raw socket: the headers, then `body`, then the socket is destroyed (a client that
 * went away), ended (a body cut short) or left open. Resolves with everything the server sent back.
 */
function raw(
  url: string,
  headers: string,
  body: string[],
  then: 'destroy' | 'end' | 'open',
): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString();
    });
    socket.on('error', () => {}); // a reset after the answer is the server closing a connection it gave up on
    socket.on('close', () => resolve(answer));
    socket.write(
      `POST /webhooks HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Service-Signature: t=1,v1=00\r\n${headers}\r\n`,
    );
    for (const part of body) socket.write(part);
    if (then === 'destroy') socket.write('', () => socket.destroy());
    else if (then === 'end') socket.end();
  });
}

describe('toNodeHandler and clients that break the request', () => {
  /** A node:http server on toNodeHandler; `served` holds each request's promise, to wait for them all. */
  async function hostile(options: Partial<WebhookHandlerOptions> = {}) {
    const { handle, processed } = receiver(options);
    const node = toNodeHandler(handle);
    const served: Promise<void>[] = [];
    const url = await listen(createServer((req, res) => void served.push(node(req, res))));
    return { url, processed, served };
  }

  test('a client that closes its connection mid-body ends that request only: no unhandled rejection', async () => {
    const { url, processed, served } = await hostile();
    const cut = Array.from({ length: 20 }, (_, i) =>
      raw(url, 'Content-Length: 1000\r\n', ['{"id":"evt_cut",'], i % 2 === 0 ? 'destroy' : 'end'),
    );
    await Promise.all(cut);
    await Promise.all(served); // each request's handling has finished, and none rejected
    expect(unhandled).toEqual([]);
    expect((await send(url, 'evt_after')).status).toBe(200); // still serving
    expect(processed).toEqual(['usr_evt_after']);
  });

  test('a chunked body past maxBodyBytes answers 413 and closes the connection', async () => {
    const { url, served } = await hostile({ maxBodyBytes: 1024 });
    const chunk = 'x'.repeat(600);
    const answer = await raw(
      url,
      'Transfer-Encoding: chunked\r\n',
      [`258\r\n${chunk}\r\n`, `258\r\n${chunk}\r\n`],
      'open',
    );
    await Promise.all(served);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toMatch(/connection: close/i);
    expect(answer).toContain('{"error":"body_too_large"}');
    expect(unhandled).toEqual([]);
  });

  test('a declared Content-Length past maxBodyBytes answers 413 before a byte is read', async () => {
    const { url } = await hostile({ maxBodyBytes: 1024 });
    const answer = await raw(url, 'Content-Length: 5000000\r\n', ['{'], 'open');
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
  });

  test('a body slower than bodyTimeoutMs answers 408 and the connection is closed', async () => {
    const { url, served } = await hostile({ bodyTimeoutMs: 100 });
    const answer = await raw(url, 'Content-Length: 1000\r\n', ['{"id":'], 'open');
    await Promise.all(served);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('{"error":"body_timeout"}');
    expect(unhandled).toEqual([]);
  });

  test('a handler that throws unexpectedly answers 500 and is reported, never rejected', async () => {
    const reported: string[] = [];
    const node = toNodeHandler(() => Promise.reject(new Error('not a webhook handler')), {
      onError: (error) => reported.push(error.message),
    });
    const served: Promise<void>[] = [];
    const url = await listen(createServer((req, res) => void served.push(node(req, res))));
    expect((await send(url)).status).toBe(500);
    await Promise.all(served);
    expect(reported).toEqual(['not a webhook handler']);
  });
});

describe('the same hostile requests behind toNodeHandler and behind fetch', () => {
  /** The handler's lines, on node:http through toNodeHandler or through a fetch adapter made for node:http. */
  async function served(adapter: 'toNodeHandler' | 'fetch', logLimit = { lines: 100, perMs: 3_600_000 }) {
    const lines: string[] = [];
    const handle = createWebhookHandler({
      secret,
      on: {},
      maxBodyBytes: 1024,
      bodyTimeoutMs: 300,
      logger: {
        warn: (line, ...details) => lines.push(['warn', line, ...details].join(' ')),
        error: (line, ...details) => lines.push(['error', line, ...details].join(' ')),
      },
      logLimit,
    });
    const listener = adapter === 'fetch' ? getRequestListener(handle) : toNodeHandler(handle);
    const server = createServer((req, res) => void listener(req, res));
    server.keepAliveTimeout = 100; // a connection the fetch adapter leaves open after its answer ends soon
    const url = await listen(server);
    return { url, lines };
  }

  const big = 'x'.repeat(10 * 1024);
  const hostileRequests = (url: string) => [
    raw(url, `Content-Length: ${big.length}\r\n`, [big], 'open'), // too large, declared
    raw(url, 'Transfer-Encoding: chunked\r\n', [`${(2048).toString(16)}\r\n${'y'.repeat(2048)}\r\n`], 'open'), // too large, chunked
    raw(url, 'Content-Length: 1000\r\n', ['{"id":"evt_cut",'], 'end'), // half-closed mid-body
    raw(url, 'Content-Length: 1000\r\n', ['{"id":'], 'open'), // too slow
  ];

  test('each rejection is one warn line, the same on both adapters', async () => {
    const node = await served('toNodeHandler');
    const fetchServed = await served('fetch');
    for (const { url } of [node, fetchServed]) {
      for (const request of hostileRequests(url)) await request; // one at a time, in the same order
    }
    const expected = [
      'warn inr-payouts webhook handler: answered 413 body_too_large: over maxBodyBytes',
      'warn inr-payouts webhook handler: answered 413 body_too_large: over maxBodyBytes',
      'warn inr-payouts webhook handler: answered 400 body_incomplete: the client closed the connection',
      'warn inr-payouts webhook handler: answered 408 body_timeout: over bodyTimeoutMs',
    ];
    expect(node.lines).toEqual(expected);
    expect(fetchServed.lines).toEqual(expected);
    expect(unhandled).toEqual([]);
  });

  test('a flood of them is bounded by logLimit the same way on both', async () => {
    const limit = { lines: 2, perMs: 3_600_000 };
    for (const adapter of ['toNodeHandler', 'fetch'] as const) {
      const { url, lines } = await served(adapter, limit);
      await Promise.all([...hostileRequests(url), ...hostileRequests(url)]);
      expect(lines, adapter).toHaveLength(2);
      for (const line of lines)
        expect(line, adapter).toMatch(/^warn inr-payouts webhook handler: answered 4\d\d /);
    }
  });

  test('toNodeHandler answers each with its status and closes the connection', async () => {
    const { url } = await served('toNodeHandler');
    const [declared, chunked, cut, slow] = await Promise.all(hostileRequests(url));
    expect(declared).toMatch(/^HTTP\/1\.1 413 [\s\S]*connection: close/i);
    expect(chunked).toMatch(/^HTTP\/1\.1 413 [\s\S]*connection: close/i);
    expect(cut).toMatch(/^(HTTP\/1\.1 400 |$)/); // answered if the half-closed client still reads
    expect(slow).toMatch(/^HTTP\/1\.1 408 [\s\S]*\{"error":"body_timeout"\}/);
  });
});
