// Structural types only: the entry imports nothing from node and no framework.

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
 * Options of {@link toNodeHandler}.
 *
 * @example
 * ```ts
 * import type { NodeHandlerOptions } from 'inr-payouts/webhooks/handler';
 *
 * const options: NodeHandlerOptions = { maxBodyBytes: 256 * 1024 };
 * ```
 */
export interface NodeHandlerOptions {
  /** Largest body read from the stream, in bytes; a larger one answers 413. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Told when a body parser in front left no raw body. Default: console.error. */
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
 * Adapts a fetch-style handler (`createWebhookHandler`) to node:http, Express and Fastify. It reads the raw body
 * itself; a body a parser left as bytes or text (`express.raw`, `express.text`, Fastify's `parseAs: 'buffer'`) is
 * used as is. When a JSON parser already consumed the stream (`req.body` is an object), it answers 500, so the
 * service retries after the fix, and reports {@link PARSED_BODY_MESSAGE}, which says how to mount it.
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
  const { maxBodyBytes = 1024 * 1024, onError = (error) => console.error(error.message) } = options;
  return async (req, res) => {
    const raw = 'raw' in req ? req.raw : req;
    const given = 'raw' in req ? req.body : req.body;
    let out: NodeResponseLike;
    if ('hijack' in res) {
      res.hijack();
      out = res.raw;
    } else out = res;
    let response: Response;
    try {
      const body = isBytes(given) ? given : await readStream(raw, given, maxBodyBytes);
      response =
        body === undefined
          ? Response.json({ error: 'body_too_large' }, { status: 413 })
          : await handler(toRequest(raw, body));
    } catch (error) {
      if (!(error instanceof ParsedBodyError)) throw error;
      onError(error);
      response = Response.json({ error: 'body_parsed_before_handler' }, { status: 500 });
    }
    out.statusCode = response.status;
    response.headers.forEach((value, name) => {
      out.setHeader(name, value);
    });
    out.end(await response.text());
  };
}

class ParsedBodyError extends Error {
  constructor() {
    super(PARSED_BODY_MESSAGE);
  }
}

async function readStream(
  req: NodeRequestLike,
  given: unknown,
  max: number,
): Promise<Uint8Array | undefined> {
  if ((typeof given === 'object' && given !== null) || req.readableEnded) throw new ParsedBodyError();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of req) {
    const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : (chunk as Uint8Array);
    size += bytes.byteLength;
    if (size > max) return undefined;
    chunks.push(bytes);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

function toRequest(req: NodeRequestLike, body: Uint8Array | string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  headers.delete('content-length'); // the body given here may be text a parser decoded
  const host = headers.get('host') ?? 'localhost';
  const method = req.method ?? 'POST';
  const bodyless = method === 'GET' || method === 'HEAD';
  return new Request(new URL(req.url ?? '/', `http://${host}`), {
    method,
    headers,
    body: bodyless ? null : (body as BodyInit),
  });
}
