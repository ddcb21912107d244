/**
 * The bridge between `node:http` and fetch: an `IncomingMessage` becomes a `Request` (binary body, repeated
 * headers kept), a `Response` is written back (repeated `set-cookie` kept, binary body), and a network-error
 * `Response` becomes a destroyed socket, which is what a dropped connection looks like to a client.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HOP_BY_HOP_HEADERS } from '../engine/headers.js';
import { SANDBOX_DEFAULTS } from '../sandbox-values.js';

/** Larger than any body the spec allows (a 10 MB document, or its base64 in a passport JSON body). */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** Thrown when a request body is larger than {@link MAX_BODY_BYTES}. */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
}

/** The whole body of a request as bytes. */
export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  // A request with neither length nor chunked framing has no body (RFC 9112 6.3): no stream to wait on.
  const { headers } = req;
  if (headers['transfer-encoding'] === undefined) {
    const length = headers['content-length'];
    if (length === undefined || length === '0') return Buffer.alloc(0);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > limit) throw new BodyTooLargeError(`The request body is over ${limit} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** The caller's address as the allow-list compares it (IPv4-mapped IPv6 unwrapped). */
export function socketAddress(req: IncomingMessage): string {
  const address = req.socket.remoteAddress ?? '';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

/**
 * A fetch `Request` for `url` from a node request: every raw header appended (so repeated ones are joined
 * the fetch way), the client-IP header set from the socket (a client cannot choose its own address), and
 * the body as bytes.
 */
export function toRequest(req: IncomingMessage, url: string, body: Buffer): Request {
  // Pairs, not a `Headers`: the `Request` appends them in order itself, without a second copy.
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
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(url, { method, headers, body: hasBody ? new Uint8Array(body) : undefined });
}

/**
 * Writes a fetch `Response` to a node response; a network-error response (`Response.error()`, an injected
 * drop) destroys the socket instead. `text` is its body when known (an API answer's), so the body is not read.
 */
export async function writeResponse(res: ServerResponse, response: Response, text?: string): Promise<void> {
  if (response.type === 'error') {
    res.socket?.destroy();
    return;
  }
  // No body: a HEAD answer, which keeps the length its GET would have had. An API answer's text is known, so
  // its body stream is never read; as a string, node sends it in one write with the head.
  let body: string | Buffer | undefined;
  if (response.body !== null) body = text ?? Buffer.from(await response.arrayBuffer());
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
