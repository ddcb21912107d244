/**
 * The standalone server's limit on a request body: read before the service sees the request, so a body too large
 * is refused with a 413 the client reads, and memory stays bounded whatever a client sends.
 */
import type { IncomingMessage } from 'node:http';

/** Larger than any body the spec allows (a 10 MB document, or its base64 in a passport JSON body). */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

/**
 * Read past {@link MAX_BODY_BYTES} and dropped, so that a client still sending its body gets to read the 413
 * (a connection closed under it would end in `EPIPE`, with no answer). Past this, the connection is closed.
 */
const DRAIN_BYTES = 96 * 1024 * 1024;

/** Thrown when a request body is larger than {@link MAX_BODY_BYTES}. */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
}

/**
 * Whether a request has a body to read: one with neither length nor chunked framing has none (RFC 9112 6.3), and
 * is answered without waiting on its stream.
 */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * The whole body of a request as bytes. A body over {@link MAX_BODY_BYTES} is not kept: the rest of it is read and
 * dropped, up to {@link DRAIN_BYTES} more, and the promise rejects with a {@link BodyTooLargeError} once it has
 * ended (or at once, for a `Content-Length` past both). A connection closed before the body's end rejects too.
 */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  const tooLarge = () =>
    new BodyTooLargeError(`The request body is over ${MAX_BODY_BYTES} bytes: send at most ${MAX_BODY_BYTES}`);
  if (Number(req.headers['content-length']) > MAX_BODY_BYTES + DRAIN_BYTES) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let ended = false;
    const end = (error?: Error) => {
      if (ended) return;
      ended = true;
      if (error) reject(error);
      else resolve(chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks));
    };
    req.on('data', (chunk: Buffer | string) => {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      size += buffer.length;
      if (size <= MAX_BODY_BYTES) chunks.push(buffer);
      else if (chunks.length) chunks.length = 0; // not kept: memory stays bounded
      if (size > MAX_BODY_BYTES + DRAIN_BYTES && !ended) {
        req.pause();
        end(tooLarge());
      }
    });
    req.once('end', () => end(size > MAX_BODY_BYTES ? tooLarge() : undefined));
    req.once('error', end);
    req.once('close', () =>
      end(new Error('The client closed the connection before the end of its request body')),
    );
  });
}
