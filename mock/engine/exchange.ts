/**
 * One request's context, made once where dispatch finds the request under the base URL: the fetch `Request`
 * that came in (its body read, decoded and parsed at most once each, its query parsed once) and the
 * {@link Answer} that went out. The pipeline, validation, idempotency, the journal and the recorder read it
 * instead of reading the `Request` or the `Response` again.
 */
import type { BundleStep } from './bundle.js';
import type { Explanation } from './explain.js';
import { nestsDeeperThan } from './json-depth.js';
import type { RouteDefinition } from './route.js';

const strict = new TextDecoder('utf-8', { fatal: true });

/**
 * What the mock answered a request: the `Response` that went back to the caller, and what the pipeline knows of
 * it, so that no reader parses or reads the response again.
 */
export interface Answer {
  /** What went back: a `HEAD` answer without its body, a dropped connection as `Response.error()`. */
  response: Response;
  /** The status the service answered, kept when the connection was dropped after the work was done. */
  status: number;
  /** The body as a value, when the pipeline built it from one (the success envelope, an error body). */
  body?: unknown;
  /** The body's JSON text as the pipeline serialised it (a `HEAD` answer's is its `GET`'s, not sent). */
  text?: string;
  explanation?: Explanation;
  /** The `X-Mock-Explain` line, taken before the strict profile drops the header. */
  explain?: string;
  /** The rate-limit headers' values, taken before the strict profile drops them. */
  rateLimit?: { limit: number; remaining: number; reset: number };
  idempotencyKey?: string;
  /** Answered from an idempotency key's stored answer. */
  replayed?: boolean;
  /** The kind of fault injected, if any. */
  fault?: string;
}

/**
 * A body parsed as JSON: `{ value }` (`value` undefined for an empty body), `{ tooDeep: true }` (not parsed) for
 * one nested deeper than the mock's limit (`MAX_JSON_DEPTH`), or `undefined` if it is not JSON.
 */
export type ParsedBody =
  | { value: unknown; tooDeep?: undefined }
  | { value?: undefined; tooDeep: true }
  | undefined;

/** Parses `text` as a request body is parsed. */
function parseBody(text: string): ParsedBody {
  if (nestsDeeperThan(text)) return { tooDeep: true };
  try {
    return { value: text.trim() === '' ? undefined : (JSON.parse(text) as unknown) };
  } catch {
    return undefined;
  }
}

const EMPTY = new ArrayBuffer(0);

/** The context of one request. */
export class Exchange {
  readonly method: string;
  readonly url: string;
  /** Decoded route parameters, once the router found the route. */
  params: Record<string, string> = {};
  /** The API route serving it; absent for routing's own answers and raw routes. */
  route?: RouteDefinition;
  /** What went back; absent until answered, and when serving failed. */
  answer?: Answer;
  /** False for a replay's own requests, which the replay records itself. */
  readonly recorded: boolean;
  /** The recorder's step for this request and its place, from its arrival until its answer is noted. */
  recording?: { step: Extract<BundleStep, { type: 'request' }>; index: number };
  #bytes?: Promise<ArrayBuffer>;
  #read?: ArrayBuffer;
  #text?: string;
  #utf8 = true;
  #json?: { parsed: ParsedBody };
  #query?: Record<string, string>;

  constructor(
    readonly request: Request,
    /** The path relative to the base URL, without the query. */
    readonly path: string,
    recorded = true,
    /** The base URL the request was sent to: its URL is this, then the path and query. By default its origin. */
    readonly sentTo: string = new URL(request.url).origin,
    /**
     * Where the absolute URLs of its answer point (an upload URL, a page's `url`): `sentTo`, or the public URL
     * the standalone server was given.
     */
    readonly base: string = sentTo,
  ) {
    this.method = request.method;
    this.url = request.url;
    this.recorded = recorded;
  }

  /** A request header's value (`name` in any case); `null` when absent. */
  header(name: string): string | null {
    return this.request.headers.get(name);
  }

  /**
   * Whether the request may carry a body: any method but `GET` and `HEAD` (an empty one reads as none). Read from
   * the method, not `request.body`, which a server adapter's request makes only when asked.
   */
  get hasBody(): boolean {
    return this.method !== 'GET' && this.method !== 'HEAD';
  }

  /** The body's bytes, read from the request once (empty without a body). */
  bytes(): Promise<ArrayBuffer> {
    if (this.#bytes) return this.#bytes;
    if (!this.hasBody) {
      this.#read = EMPTY;
      this.#bytes = Promise.resolve(EMPTY);
    } else
      this.#bytes = this.request.arrayBuffer().then((read) => {
        this.#read = read;
        return read;
      });
    return this.#bytes;
  }

  /** The body as text, decoded once as `Request.text()` does; `''` until {@link bytes} has resolved. */
  get text(): string {
    if (this.#text === undefined && this.#read !== undefined) {
      try {
        this.#text = strict.decode(this.#read);
      } catch {
        this.#text = new TextDecoder().decode(this.#read);
        this.#utf8 = false;
      }
    }
    return this.#text ?? '';
  }

  /** Whether the body is valid UTF-8 (else {@link text} holds replacement characters). */
  get utf8(): boolean {
    return this.text === '' || this.#utf8;
  }

  /** The body parsed as JSON once, on first ask (see {@link ParsedBody}). */
  json(): ParsedBody {
    this.#json ??= { parsed: parseBody(this.text) };
    return this.#json.parsed;
  }

  /**
   * The first value of each query parameter, parsed once. `Request#url` is already serialised, so its query
   * parses as `URL#searchParams` would have it, without parsing the whole URL again.
   */
  get query(): Record<string, string> {
    if (this.#query) return this.#query;
    const out: Record<string, string> = {};
    const url = this.url;
    const start = url.indexOf('?');
    if (start >= 0) {
      const end = url.indexOf('#', start);
      for (const [name, value] of new URLSearchParams(url.slice(start + 1, end < 0 ? undefined : end)))
        out[name] ??= value;
    }
    this.#query = out;
    return out;
  }

  /** The query string with its `?`, as sent, when there is one. */
  get search(): string | undefined {
    const start = this.url.indexOf('?');
    return start < 0 ? undefined : this.url.slice(start).split('#')[0];
  }
}
