/**
 * The bridge between `node:http` and the mock's dispatch: an `IncomingMessage` becomes a fetch `Request` (binary
 * body, repeated headers kept), an answer's `Response` is written back (repeated `set-cookie` kept, a binary
 * body), and a network error becomes a destroyed socket, which is what a dropped connection looks like to a
 * client.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HOP_BY_HOP_HEADERS } from '../engine/headers.js';
import { SANDBOX_DEFAULTS } from '../sandbox-values.js';

/** Larger than any body the spec allows (a 10 MB document, or its base64 in a passport JSON body). */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

/**
 * Read past {@link MAX_BODY_BYTES} and dropped, so that a client still sending its body gets to read the 413
 * (a connection closed under it would end in `EPIPE`, with no answer). Past this, the connection is closed.
 */
export const DRAIN_BYTES = 96 * 1024 * 1024;

/** Thrown when a request body is larger than {@link MAX_BODY_BYTES}; `drained` when all of it was read. */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
  constructor(
    message: string,
    readonly drained: boolean,
  ) {
    super(message);
  }
}

/** The body of a request that has none: one value, never written to. */
export const NO_BODY: Buffer<ArrayBuffer> = Buffer.alloc(0);

/**
 * Whether a request has a body to read: one with neither length nor chunked framing has none (RFC 9112 6.3), and
 * is answered without waiting on its stream.
 */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * The whole body of a request as bytes. A body over `limit` is not kept: the rest of it is read and dropped, up to
 * `drain` more bytes, and the promise rejects with a {@link BodyTooLargeError} once it has ended (or at once, for a
 * `Content-Length` past both).
 */
export function readBody(
  req: IncomingMessage,
  limit = MAX_BODY_BYTES,
  drain = DRAIN_BYTES,
): Promise<Buffer<ArrayBuffer>> {
  if (!hasBody(req)) return Promise.resolve(NO_BODY);
  const length = req.headers['content-length'];
  const tooLarge = (drained: boolean) =>
    new BodyTooLargeError(`The request body is over ${limit} bytes: send at most ${limit}`, drained);
  if (Number(length) > limit + drain) return Promise.reject(tooLarge(false));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let ended = false;
    req.on('data', (chunk: Buffer | string) => {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      size += buffer.length;
      if (size <= limit) chunks.push(buffer);
      else if (chunks.length) chunks.length = 0; // not kept: memory stays bounded
      if (size > limit + drain && !ended) {
        ended = true;
        req.pause();
        reject(tooLarge(false));
      }
    });
    req.once('end', () => {
      if (ended) return;
      ended = true;
      if (size > limit) reject(tooLarge(true));
      else resolve(Buffer.concat(chunks));
    });
    req.once('error', (error) => {
      ended = true;
      reject(error);
    });
  });
}

/** The caller's address as the allow-list compares it (IPv4-mapped IPv6 unwrapped). */
export function socketAddress(req: IncomingMessage): string {
  const address = req.socket.remoteAddress ?? '';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

/**
 * The fetch `Request` for `url` from a node request: every raw header kept in order (so repeated ones are joined
 * the fetch way), the client-IP header set from the socket (a client cannot choose its own address), and the
 * body's bytes.
 */
export function toRequest(req: IncomingMessage, url: string, body: Buffer<ArrayBuffer>): Request {
  const headers: [string, string][] = [];
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] ?? '';
    // Hop-by-hop and the IP header are the server's business, not the handler's.
    const lower = name.toLowerCase();
    if (HOP_BY_HOP_HEADERS.has(lower) || lower === SANDBOX_DEFAULTS.clientIpHeader) continue;
    headers.push([name, raw[i + 1] ?? '']);
  }
  headers.push([SANDBOX_DEFAULTS.clientIpHeader, socketAddress(req)]);
  const method = (req.method ?? 'GET').toUpperCase();
  const bodyless = method === 'GET' || method === 'HEAD' || body.byteLength === 0;
  return new Request(url, { method, headers, body: bodyless ? undefined : body });
}

/**
 * Writes a `Response` to a node response: its body read to its end (the promise), a `HEAD` answer's head only,
 * and a network error (`Response.error()`, an injected drop) as a destroyed socket.
 */
export function writeAnswer(res: ServerResponse, response: Response): Promise<void> | undefined {
  if (response.type === 'error') {
    res.socket?.destroy();
    return undefined;
  }
  // No body: a HEAD answer, which keeps the length its GET would have had.
  if (response.body === null) {
    writeResponse(res, response, undefined);
    return undefined;
  }
  return response.arrayBuffer().then((bytes) => writeResponse(res, response, Buffer.from(bytes)));
}

/** Writes the head of `response` and `body` (see {@link writeAnswer}). */
function writeResponse(res: ServerResponse, response: Response, body: Buffer | undefined): void {
  // One flat list for writeHead: node takes it as is, without a setHeader call per header.
  const head: string[] = [];
  for (const [name, value] of response.headers) {
    if (name !== 'set-cookie' && (name !== 'content-length' || body === undefined)) head.push(name, value);
  }
  for (const cookie of response.headers.getSetCookie()) head.push('set-cookie', cookie);
  if (body !== undefined) head.push('content-length', String(Buffer.byteLength(body)));
  res.writeHead(response.status, head);
  res.end(body);
}
