// Structural types only: the entry imports nothing from node and no framework.
import { bytesOf } from './body.js';
import { limitedLog } from './log.js';

/** What the adapter reads of node's `IncomingMessage` (Express's `req` is one; Fastify's `request.raw` too). */
export interface NodeRequestLike extends AsyncIterable<unknown> {
  method?: string | undefined;
  url?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  /** Set by a body parser: bytes or text are used as the raw body; a parsed object is diagnosed. */
  body?: unknown;
  readableEnded?: boolean;
}

/** What the adapter writes of node's `ServerResponse` (Express's `res`; Fastify's `reply.raw`). */
export interface NodeResponseLike {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  end(body?: string): unknown;
  readonly headersSent?: boolean;
}

/** Fastify's request and reply, as far as the adapter reads them. */
export interface FastifyRequestLike {
  raw: NodeRequestLike;
  body?: unknown;
}
/** Fastify's reply: the adapter takes the response over (`hijack`) and answers on `raw`. */
export interface FastifyReplyLike {
  raw: NodeResponseLike;
  hijack(): unknown;
}

/**
 * Options of {@link toNodeHandler}. The body's limits and the lines of a rejected request are the handler's own
 * (`maxBodyBytes`, `bodyTimeoutMs`, `logger` of `createWebhookHandler`): the adapter hands it node's stream.
 *
 * @example
 * ```ts
 * import type { NodeHandlerOptions } from 'inr-payouts/webhooks/handler';
 *
 * const options: NodeHandlerOptions = { onError: (error) => console.error(error.message) };
 * ```
 */
export interface NodeHandlerOptions {
  /**
   * Told when a body parser in front left no raw body, or the handler failed unexpectedly. Default: one line to
   * console.error, at most 10 a minute.
   */
  onError?: (error: Error) => void;
}

/** The error a request meets when a JSON body parser ran before the adapter: the raw bytes are gone. */
export const PARSED_BODY_MESSAGE =
  'The webhook request body was already parsed (req.body is an object and the stream is read), so its raw bytes, ' +
  'which the signature covers, are gone. Mount the webhook route before express.json() (or app.use(express.json()) ' +
  "only on other routes), or give it express.raw({ type: 'application/json' }); in Fastify add a content-type " +
  "parser with parseAs: 'buffer' in the webhook route's plugin.";

const isBytes = (value: unknown): value is Uint8Array | string =>
  typeof value === 'string' || value instanceof Uint8Array;

/**
 * Adapts a fetch-style handler (`createWebhookHandler`) to node:http, Express and Fastify. It hands the handler
 * node's request stream, so the handler reads the raw body within its own `maxBodyBytes` and `bodyTimeoutMs` and
 * writes the same line for a rejected request as it does behind `fetch`. A body a parser left as bytes or text
 * (`express.raw`, `express.text`, Fastify's `parseAs: 'buffer'`) is used as is. When a JSON parser already consumed
 * the stream (`req.body` is an object), it answers 500, so the service retries after the fix, and reports
 * {@link PARSED_BODY_MESSAGE}, which says how to mount it.
 *
 * No request can end the process: a body past `maxBodyBytes` answers 413, one slower than `bodyTimeoutMs` 408, one
 * the client cut off (a closed connection, `Error: aborted`) 400, each closing the connection; the promise it
 * returns never rejects.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { createWebhookHandler, toNodeHandler } from 'inr-payouts/webhooks/handler';
 *
 * const handle = createWebhookHandler({
 *   secret: 'whsec_example',
 *   on: { 'transaction.payout_completed': async (event) => console.log(event.data.utr) },
 * });
 * const server = createServer(toNodeHandler(handle)); // Express: app.post('/webhooks', toNodeHandler(handle))
 * // Fastify: app.post('/webhooks', toNodeHandler(handle)), with its JSON parser as parseAs: 'buffer' there
 * server.close();
 * ```
 */
export function toNodeHandler(
  handler: (request: Request) => Promise<Response>,
  options: NodeHandlerOptions = {},
): (req: NodeRequestLike | FastifyRequestLike, res: NodeResponseLike | FastifyReplyLike) => Promise<void> {
  const log = limitedLog(console, 'error');
  const { onError = (error) => log('error', error.message) } = options;
  const serve = async (raw: NodeRequestLike, given: unknown, out: NodeResponseLike) => {
    let response: Response;
    if (isBytes(given)) response = await handler(toRequest(raw, given));
    else if ((typeof given === 'object' && given !== null) || raw.readableEnded) {
      onError(new Error(PARSED_BODY_MESSAGE));
      response = Response.json({ error: 'body_parsed_before_handler' }, { status: 500 });
    } else response = await handler(toRequest(raw, streamOf(raw)));
    out.statusCode = response.status;
    response.headers.forEach((value, name) => {
      out.setHeader(name, value);
    });
    // A body the handler refused unread (too large, too slow, cut off) stays in the socket: node closes the
    // connection once the answer is written, instead of reading the rest.
    if (raw.readableEnded !== true) out.setHeader('connection', 'close');
    out.end(await response.text());
  };
  return async (req, res) => {
    let out: NodeResponseLike;
    if ('hijack' in res) {
      res.hijack();
      out = res.raw;
    } else out = res;
    // node:http does not wait for this promise: a rejection would be unhandled and end the process.
    await serve('raw' in req ? req.raw : req, req.body, out)
      .catch((error: unknown) => {
        onError(error instanceof Error ? error : new Error(String(error)));
        if (out.headersSent === true) return;
        out.statusCode = 500;
        out.setHeader('content-type', 'application/json');
        out.end('{"error":"internal_error"}');
      })
      .catch(() => undefined);
  };
}

/**
 * node's request as a WHATWG stream, read only as the handler pulls. A stream that errors (the client went away)
 * errors this one. Cancelling leaves node's stream as it is: ending it would destroy the socket the answer goes on.
 */
function streamOf(req: NodeRequestLike): ReadableStream<Uint8Array> {
  const chunks = req[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done === true) controller.close();
      else controller.enqueue(bytesOf(next.value));
    },
  });
}

function toRequest(req: NodeRequestLike, body: Uint8Array | string | ReadableStream<Uint8Array>): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  // A body a parser gave may be text it decoded, no longer the declared length; node's own stream still is.
  if (!(body instanceof ReadableStream)) headers.delete('content-length');
  const host = headers.get('host') ?? 'localhost';
  const method = req.method ?? 'POST';
  const bodyless = method === 'GET' || method === 'HEAD';
  // `duplex` (a streamed body must say it) is fetch's, not yet in the DOM library's RequestInit.
  const init: RequestInit & { duplex: 'half' } = {
    method,
    headers,
    body: bodyless ? null : (body as BodyInit),
    duplex: 'half',
  };
  return new Request(new URL(req.url ?? '/', `http://${host}`), init);
}
