/**
 * One request's context, made once where dispatch finds the request under the base URL: what came in (its body
 * read, decoded and parsed at most once each, its query parsed once) and what went out. The pipeline, validation,
 * idempotency and the journal read it instead of reading the `Request` or the `Response` again.
 */
import type { BundleStep } from './bundle.js';
import type { Explanation } from './explain.js';
import { nestsDeeperThan } from './json-depth.js';
import { fetchRequest, isPlain, PlainHeaders, type PlainRequest } from './plain-request.js';
import { type Answer, isReply, toResponse } from './reply.js';
import type { RouteDefinition } from './route.js';

const strict = new TextDecoder('utf-8', { fatal: true });

/** What the pipeline answered an API request, as the journal and the test suite's checks read it. */
export interface ExchangeAnswer {
  response: Answer;
  /** The body as a value, when the pipeline built it from one (the success envelope, an error body). */
  body?: unknown;
  /** The body's JSON text, when the pipeline serialised it (so no one reads the response for it). */
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

/** What dispatch serves: a fetch `Request`, or one the standalone server read without making one. */
export type IncomingRequest = Request | PlainRequest;

/** The bytes of a view as an `ArrayBuffer` of their own (a node `Buffer` may be a slice of a shared pool). */
function copyOf(view: Uint8Array<ArrayBuffer>): ArrayBuffer {
  return view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength);
}

/** The context of one request. */
export class Exchange {
  readonly method: string;
  readonly url: string;
  /** Decoded route parameters, once the router found the route. */
  params: Record<string, string> = {};
  /** The API route serving it; absent for routing's own answers and raw routes. */
  route?: RouteDefinition;
  /** Set by the pipeline for an API route. */
  answer?: ExchangeAnswer;
  /** False for a replay's own requests, which the replay records itself. */
  readonly recorded: boolean;
  /** The recorder's step for this request and its place, from its arrival until its answer is noted. */
  recording?: { step: Extract<BundleStep, { type: 'request' }>; index: number };
  readonly #source: IncomingRequest;
  #request?: Request;
  #headers?: PlainHeaders;
  #sent?: Answer;
  #sentResponse?: Response;
  #bytes?: Promise<ArrayBuffer>;
  #read?: ArrayBuffer;
  #text?: string;
  #utf8 = true;
  #json?: { parsed: ParsedBody };
  #query?: Record<string, string>;

  constructor(
    request: IncomingRequest,
    /** The path relative to the base URL, without the query. */
    readonly path: string,
    recorded = true,
  ) {
    this.#source = request;
    if (!isPlain(request)) this.#request = request;
    this.method = request.method;
    this.url = request.url;
    this.recorded = recorded;
  }

  /** The request as a fetch `Request` (made on first ask from a plain one). */
  get request(): Request {
    const source = this.#source;
    this.#request ??= isPlain(source) ? fetchRequest(source) : source;
    return this.#request;
  }

  /** A request header's value (`name` in any case), as fetch's `Headers#get` reads it; `null` when absent. */
  header(name: string): string | null {
    return this.#headerList().get(name);
  }

  /** The request's headers as fetch's `Headers` iterates them: lower-case names, in name order. */
  headerEntries(): Iterable<[string, string]> {
    return this.#headerList();
  }

  /** The headers as received (name, value…) of a request read without a `Request`; `undefined` for a `Request`. */
  get rawHeaders(): readonly string[] | undefined {
    const source = this.#source;
    return isPlain(source) ? source.rawHeaders : undefined;
  }

  #headerList(): Headers | PlainHeaders {
    const source = this.#source;
    if (!isPlain(source)) return source.headers;
    this.#headers ??= new PlainHeaders(source.rawHeaders);
    return this.#headers;
  }

  /**
   * What went back to the caller (after `HEAD`, the strict profile and a dropped connection) as a fetch
   * `Response`, made on first ask from a `Reply`; absent if nothing went back.
   */
  get sent(): Response | undefined {
    const sent = this.#sent;
    if (sent === undefined || !isReply(sent)) return sent;
    this.#sentResponse ??= toResponse(sent);
    return this.#sentResponse;
  }

  /** What went back as the mock built it: a `Reply` for a JSON answer, else the `Response`. */
  get reply(): Answer | undefined {
    return this.#sent;
  }

  /** Records what went back. */
  send(answer: Answer | undefined): void {
    this.#sent = answer;
    this.#sentResponse = undefined;
  }

  /** The text of what was sent, when the pipeline serialised it and sent it as it was (not a `HEAD` answer). */
  get sentText(): string | undefined {
    const { answer } = this;
    return answer && this.#sent === answer.response ? answer.text : undefined;
  }

  /** Whether the request carries a body (never for `GET` and `HEAD`). */
  get hasBody(): boolean {
    if (this.method === 'GET' || this.method === 'HEAD') return false;
    const source = this.#source;
    return isPlain(source) || source.body !== null;
  }

  /** The body's bytes, read from the request once (empty without a body). */
  bytes(): Promise<ArrayBuffer> {
    if (this.#bytes) return this.#bytes;
    const source = this.#source;
    if (!this.hasBody) this.#read = new ArrayBuffer(0);
    else if (isPlain(source)) this.#read = copyOf(source.body);
    this.#bytes = this.#read
      ? Promise.resolve(this.#read)
      : this.request.arrayBuffer().then((read) => {
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
   * The first value of each query parameter, parsed once. The URL is already serialised by the parser, so its
   * query parses as `URL#searchParams` would have it, without parsing the whole URL again.
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
