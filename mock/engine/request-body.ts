/**
 * A request's body, read once. The recorder reads an API request's body to keep it in the bundle before the
 * service runs; the route then takes the same bytes from here instead of the recorder reading a clone (a
 * clone tees the body stream, which was a third of an in-process POST's cost).
 */

const taken = new WeakMap<Request, ArrayBuffer>();

/** Reads `request`'s body and keeps the bytes for the route that serves it. */
export async function takeBody(request: Request): Promise<ArrayBuffer> {
  const bytes = await request.arrayBuffer();
  taken.set(request, bytes);
  return bytes;
}

/** The body's bytes: those already taken, or read now. */
export function requestBytes(request: Request): Promise<ArrayBuffer> {
  const bytes = taken.get(request);
  return bytes ? Promise.resolve(bytes) : request.arrayBuffer();
}

/** The body as text, decoded as `Request.text()` does (UTF-8, a leading byte-order mark dropped). */
export async function requestText(request: Request): Promise<string> {
  const bytes = taken.get(request);
  return bytes ? new TextDecoder().decode(bytes) : request.text();
}
