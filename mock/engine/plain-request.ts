/**
 * A request the standalone server read from `node:http`, kept as plain values. The exchange reads its headers
 * as fetch's `Headers` would and makes a fetch `Request` of it only when a route asks for one: fetch's
 * machinery (URL parsing, an abort signal, a body stream) cost each request more than the rest of its routing.
 */

/** A request as read from the wire. */
export interface PlainRequest {
  /** Upper case. */
  readonly method: string;
  /** Absolute, already as `Request#url` serialises it. */
  readonly url: string;
  /** Name, value, name, value…, as received (names as sent); the connection's own headers left out. */
  readonly rawHeaders: readonly string[];
  /** Empty when none was sent. */
  readonly body: Uint8Array<ArrayBuffer>;
}

/**
 * Whether a request is a plain one. Checked by shape, not `instanceof Request`: Node 20 loads fetch's
 * implementation on the first use of the global, which would add about 40 ms to the standalone server's start.
 */
export function isPlain(request: Request | PlainRequest): request is PlainRequest {
  return 'rawHeaders' in request;
}

/** HTTP whitespace fetch strips from both ends of a header value. */
const EDGE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

/**
 * Headers read the way fetch's `Headers` reads them: lower-case names, a repeated header's values joined (`; `
 * for `cookie`, `, ` otherwise), `set-cookie` values kept apart, and iterated in name order.
 */
export class PlainHeaders implements Iterable<[string, string]> {
  readonly #values = new Map<string, string>();
  readonly #cookies: string[] = [];

  constructor(raw: readonly string[]) {
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = (raw[i] ?? '').toLowerCase();
      let value = raw[i + 1] ?? '';
      const last = value.charCodeAt(value.length - 1);
      if (value.charCodeAt(0) <= 32 || last <= 32) value = value.replace(EDGE, '');
      if (name === 'set-cookie') this.#cookies.push(value);
      const before = this.#values.get(name);
      this.#values.set(
        name,
        before === undefined ? value : `${before}${name === 'cookie' ? '; ' : ', '}${value}`,
      );
    }
  }

  /** The value of `name` (any case), `null` when absent. */
  get(name: string): string | null {
    return this.#values.get(name.toLowerCase()) ?? null;
  }

  [Symbol.iterator](): Iterator<[string, string]> {
    const entries: [string, string][] = [];
    for (const name of [...this.#values.keys()].sort()) {
      if (name === 'set-cookie') for (const cookie of this.#cookies) entries.push([name, cookie]);
      else entries.push([name, this.#values.get(name) ?? '']);
    }
    return entries[Symbol.iterator]();
  }
}

/** The fetch `Request` of a plain one. */
export function fetchRequest(plain: PlainRequest): Request {
  const headers: [string, string][] = [];
  const raw = plain.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.push([raw[i] ?? '', raw[i + 1] ?? '']);
  const { method } = plain;
  const body = method === 'GET' || method === 'HEAD' ? undefined : plain.body;
  return new Request(plain.url, { method, headers, body });
}
