// Reading a request body within the handler's limits (behind fetch, and behind the node adapter, which hands
// node's stream on): a client that drops, overfills or stalls its body ends its own request with an answer.

/** Why a body was not read: past the size cap, cut off by the client, or slower than the time allowed. */
export type BodyProblem = 'body_too_large' | 'body_incomplete' | 'body_timeout';

/** The answer to each problem (400 when nobody is left to read it), and what the warning line says of it. */
export const BODY_PROBLEMS: Record<BodyProblem, { status: number; why: string }> = {
  body_too_large: { status: 413, why: 'over maxBodyBytes' },
  body_incomplete: { status: 400, why: 'the client closed the connection' },
  body_timeout: { status: 408, why: 'over bodyTimeoutMs' },
};

export const DEFAULT_MAX_BODY = 1024 * 1024;
// The service gives up on a delivery after 30 s (spec 6.4): a body still arriving then is not the service's.
export const DEFAULT_BODY_TIMEOUT_MS = 30_000;

/** A stream's next chunk: a WHATWG reader's `read`. */
export interface ChunkSource {
  next(): Promise<{ done?: boolean; value?: unknown }>;
}

const encoder = new TextEncoder();

/** A chunk of node's stream (a Buffer, or text once a stream has an encoding) as bytes. */
export const bytesOf = (chunk: unknown): Uint8Array =>
  typeof chunk === 'string' ? encoder.encode(chunk) : (chunk as Uint8Array);

/** The whole body, or why not. Never rejects: a stream that errors (the client went away) is `body_incomplete`. */
export async function readChunks(
  source: ChunkSource,
  max: number,
  timeoutMs: number,
): Promise<Uint8Array | BodyProblem> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'body_timeout'>((resolve) => {
    timer = setTimeout(resolve, timeoutMs, 'body_timeout');
  });
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      // The read left pending on a time-out has a handler through the race, so its later rejection is no crash.
      const next = await Promise.race([source.next(), late]);
      if (next === 'body_timeout') return next;
      if (next.done === true) break;
      const bytes = bytesOf(next.value);
      size += bytes.byteLength;
      if (size > max) return 'body_too_large';
      parts.push(bytes);
    }
  } catch {
    return 'body_incomplete';
  } finally {
    clearTimeout(timer);
  }
  return new Uint8Array(await new Blob(parts as BlobPart[]).arrayBuffer());
}
