import type { Input, Options as KyOptions, SearchParamsOption } from 'ky';
import { validate as isUuid, v4 as uuidv4 } from 'uuid';
import type * as z from 'zod/mini';
import { PayoutError } from '../shared/payout-error.js';
import { type PlainFetch, plainFetchOf } from '../shared/plain-fetch.js';
import { redact, redactCause } from '../shared/redact.js';
import { KY_REQUEST } from '../shared/sent-request.js';
import { ApiPromise, type Outcome } from './api-promise.js';
import { type ClientClock, realClock } from './clock.js';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  ResponseValidationError,
  ValidationError,
} from './errors.js';
import type { ResolvedClientOptions } from './options.js';
import { retryWait } from './retry.js';
import type { FetchOptions, HttpMethod, RequestOptions } from './types.js';
import { parseRequest, parseResponse } from './validate.js';

/** One call to the service, as a resource method describes it. */
export interface Call<T> {
  method: HttpMethod;
  /** `/v2/...`, path parameters already encoded with {@link pathParam}. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** Validated against `bodySchema` before anything is sent; the parsed value is sent. */
  body?: unknown;
  bodySchema?: z.ZodMiniType;
  querySchema?: z.ZodMiniType<Record<string, unknown>>;
  /** Without it `data` is returned as received. */
  dataSchema?: z.ZodMiniType<T>;
  /** Validates and returns the whole envelope, for answers with siblings of `data` (`pagination`). */
  envelopeSchema?: z.ZodMiniType<T>;
  /** Sends an `Idempotency-Key`. Default: true for POST, PUT, PATCH and DELETE. */
  idempotent?: boolean;
  /** The endpoint table's key (`transactions.create`) and the path as the spec writes it, for hooks' `context`. */
  operationId?: string | undefined;
  urlTemplate?: string;
}

/**
 * Encodes one path parameter, checked to be a non-empty string: a missing ID fails here, clearly, instead of
 * reaching another endpoint.
 * @example
 * ```ts
 * import { pathParam } from 'inr-payouts';
 * console.log(`/v2/users/${pathParam('userId', 'usr 1')}/kyc/status`); // '/v2/users/usr%201/kyc/status'
 * ```
 */
export function pathParam(name: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ValidationError(`path parameter ${name}`, [
      { path: name, message: 'is required (a non-empty string)' },
    ]);
  }
  // encodeURIComponent keeps `.` and `..`, which URL parsing resolves: `kyc.status('..')` reads another endpoint.
  if (value === '.' || value === '..') {
    throw new ValidationError(`path parameter ${name}`, [
      { path: name, message: `cannot be "${value}" (a dot segment would reach another endpoint)` },
    ]);
  }
  return encodeURIComponent(value);
}

/** Spec section 8: an `Idempotency-Key` is a UUID; a caller's own key is checked before anything is sent. */
function notUuid(endpoint: string): ValidationError {
  return new ValidationError(endpoint, [
    {
      path: 'idempotencyKey',
      message:
        'must be a UUID (spec section 8), such as crypto.randomUUID() gives; reuse it to repeat the call',
    },
  ]);
}

type Ky = typeof import('ky');
let kyModule: Promise<Ky> | undefined;
/** ky once loaded: a request then starts without waiting a turn for the import's promise. */
let kyLoaded: Ky | undefined;
/** ky, imported on a client's first request: its import, with the fetch internals it probes, was 70 ms of a cold one. */
const loadKy = (): Promise<Ky> =>
  (kyModule ??= import('ky').then((lib) => {
    kyLoaded = lib;
    return lib;
  }));

const MUTATING: ReadonlySet<HttpMethod> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** ky retries a method only if it is listed; which calls may be retried is decided per call (`limit`). */
const RETRY_METHODS = ['get', 'post', 'put', 'patch', 'delete'];
/** Answers worth another attempt: a time-out, the rate limit, the service's own failures. */
const retriedStatus = (status: number): boolean =>
  status === 408 || status === 429 || (status >= 500 && status < 600);

/** Header names lower-cased into `into`: a call's header replaces the client's of any case, as ky's merge does. */
function lowerCased(
  headers: Record<string, string>,
  into: Record<string, string> = {},
): Record<string, string> {
  for (const [name, value] of Object.entries(headers)) into[name.toLowerCase()] = value;
  return into;
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * What ky's request is, with the real `Authorization`: the parts a partner's fetch gets as a Request made from
 * ky's URL (one made from ky's Request with new headers keeps the old ones inside where msw's interception is on,
 * and `new Headers(request.headers)` in a partner's wrapper would read both keys), and the headers and body the
 * global fetch gets beside ky's request where a partner's hook holds it. Headers and body are the call's own
 * (`sent`) when the client knows ky's are (no partner hook could replace them; ky adds a header only for its `json`
 * option and `.json()`, which the client does not use), else read from ky's request.
 */
function keyedParts(kys: Request, bearer: string, sent: Sent | undefined): KeyedParts | Promise<KeyedParts> {
  const headers: Record<string, string> = sent ? { ...sent.headers } : Object.fromEntries(kys.headers);
  headers.authorization = bearer;
  // Only what differs from a fresh request's defaults: fetch converts and checks every key it is given.
  const parts: KeyedParts = { method: kys.method, headers, signal: kys.signal };
  if (kys.redirect !== 'follow') parts.redirect = kys.redirect;
  if (kys.credentials !== 'same-origin') parts.credentials = kys.credentials;
  if (kys.keepalive) parts.keepalive = true;
  if (kys.body === null) return parts;
  if (sent?.body !== undefined) return Object.assign(parts, { body: sent.body });
  return kys.arrayBuffer().then((body) => Object.assign(parts, { body }));
}

/** A call's headers (names lower case) and body as the client gave them to ky. */
interface Sent {
  headers: Record<string, string>;
  body: string | undefined;
}

interface KeyedParts extends RequestInit {
  method: string;
  headers: Record<string, string>;
  signal: AbortSignal;
  body?: string | ArrayBuffer;
}

/** True when ky hands its fetch nothing beyond the request (no option fetch alone knows, such as `dispatcher`). */
function nothingMore(init: RequestInit): boolean {
  for (const _ in init) return false;
  return true;
}

interface CallFacts {
  endpoint: string;
  idempotencyKey: string | undefined;
  timeout: number;
  deadline: number;
  signal: AbortSignal | undefined;
}

/** The client's error for what ky (or the fetch under it) threw; an HTTPError's body is read here. */
async function toError(error: unknown, facts: CallFacts, { HTTPError, TimeoutError }: Ky): Promise<Error> {
  const { endpoint, idempotencyKey } = facts;
  if (facts.signal?.aborted) return new APIUserAbortError(endpoint, { cause: facts.signal.reason });
  if (error instanceof HTTPError) {
    const { response } = error;
    // A partner's beforeError hook may have read the body already.
    const text = response.bodyUsed ? '' : await response.text().catch(() => '');
    const { status, headers } = response;
    return APIError.from({ status, body: parseBody(text), headers, endpoint, idempotencyKey });
  }
  if (error instanceof TimeoutError) return new APITimeoutError(endpoint, facts.timeout, { idempotencyKey });
  // The deadline's own signal (see `send`) rejects with `TimeoutError` (or `AbortError` in older runtimes).
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return new APITimeoutError(endpoint, facts.deadline, { idempotencyKey, deadline: true });
  }
  return new APIConnectionError(endpoint, { cause: error, idempotencyKey });
}

/**
 * The one pipeline every endpoint rides on: ky sends, times and retries; the partner interface's rules stay here
 * (mutating calls retried only with their idempotency key, the service's 429 wait, a deadline across attempts,
 * every wait on the client's clock, so ky's own is zero); every failure becomes one of the client's errors.
 */
export class Transport {
  readonly #options: ResolvedClientOptions;
  /** The partner's `fetch`, if any. */
  readonly #send: ((request: Request, init: RequestInit) => Promise<Response>) | undefined;
  /** The partner's `fetch` in the form that takes plain values, when it has one (`mock.fetch`). */
  readonly #plain: PlainFetch | undefined;
  readonly #bearer: string;
  /** What hooks see carries the key masked; the request actually sent gets the real one (`send`). */
  readonly #headers: Record<string, string>;

  constructor(options: ResolvedClientOptions) {
    this.#options = options;
    this.#send = options.fetch;
    this.#plain = plainFetchOf(options.fetch);
    this.#bearer = `Bearer ${options.apiKey}`;
    this.#headers = lowerCased(options.defaultHeaders, { accept: 'application/json' });
    this.#headers.authorization = redact(this.#bearer);
  }

  /** The service said it is the mock on a clock only a test moves (`X-Mock-Clock: manual`, docs/mock-only.md). */
  #manualMock = false;

  get clock(): ClientClock {
    return this.#options.clock;
  }

  /** The clock `waitFor...` polls on; on real time it refuses to wait for a mock whose clock only a test moves. */
  get pollClock(): ClientClock {
    const { clock, baseUrl } = this.#options;
    if (clock !== realClock) return clock;
    return {
      now: clock.now,
      sleep: (ms, signal) => {
        if (!this.#manualMock) return clock.sleep(ms, signal);
        const message = `${baseUrl} is a mock on a manual clock, so a real-time wait never ends: use mock.createClient() (or clock: mock.clientClock), or npx inr-payouts-mock --speed 1`;
        return Promise.reject(new PayoutError(message));
      },
    };
  }

  fetchOptions(options?: RequestOptions): FetchOptions | undefined {
    const own = options?.fetchOptions;
    return own ? { ...this.#options.fetchOptions, ...own } : this.#options.fetchOptions;
  }

  /** One logical call, with its retries. */
  request<T>(call: Call<T>, options: RequestOptions = {}): ApiPromise<T> {
    return new ApiPromise(this.#run(call, options));
  }

  async #run<T>(call: Call<T>, options: RequestOptions): Promise<Outcome<T>> {
    const endpoint = `${call.method} ${call.path}`;
    const body = call.bodySchema ? parseRequest(call.bodySchema, call.body ?? {}, endpoint) : call.body;
    const query = call.querySchema ? parseRequest(call.querySchema, call.query ?? {}, endpoint) : call.query;
    const headers = lowerCased(options.headers ?? {}, { ...this.#headers });
    let idempotencyKey = headers['idempotency-key'];
    // The caller's own key, as a header or an option, must be a UUID; a generated one is one by construction.
    const ownKey = idempotencyKey ?? (options.idempotencyKey || undefined);
    if (ownKey !== undefined && !isUuid(ownKey)) throw notUuid(endpoint);
    const keyed = call.idempotent ?? MUTATING.has(call.method);
    if (idempotencyKey === undefined && keyed && options.idempotencyKey !== false) {
      idempotencyKey = options.idempotencyKey ?? uuidv4();
      headers['idempotency-key'] = idempotencyKey;
    }
    const { clock, logger, hooks } = this.#options;
    // The body as sent: serialised once, for ky and for the request sent with the key (as ky's `json` would).
    const json = body === undefined ? undefined : JSON.stringify(body);
    if (json !== undefined) headers['content-type'] ??= 'application/json';
    const { timeout = this.#options.timeout, deadline = this.#options.deadline, signal } = options;
    const facts: CallFacts = { endpoint, idempotencyKey, timeout, deadline, signal };
    const deadlineAt = clock.now() + deadline;
    const fetchOptions = this.fetchOptions(options);
    const sent: Sent = { headers, body: json };
    // Only the partner's beforeRequest and beforeRetry hooks can hand ky another request.
    const ownRequest = !hooks?.beforeRequest?.length && !hooks?.beforeRetry?.length;
    // Without a partner's hook nothing shows ky's request (the client's errors keep none of ky's), so it carries
    // the real key and the global fetch gets it as it is, as a bare ky call's does.
    const unseen = ownRequest && !hooks?.afterResponse?.length && !hooks?.beforeError?.length;
    if (unseen) headers.authorization = this.#bearer;
    let attempts = 1;
    let wait = 0;
    const kyLib = kyLoaded ?? (await loadKy());
    // shouldRetry and the final catch see the same error: it is mapped (and its body read) once.
    let last: { error: unknown; failure: Promise<Error> } | undefined;
    const failure = (error: unknown): Promise<Error> => {
      if (last === undefined || last.error !== error) last = { error, failure: toError(error, facts, kyLib) };
      return last.failure;
    };

    // Each attempt: the real key, the fetch options, and the deadline when it comes before the attempt's time-out.
    // ky's request is never changed; the global fetch gets it as it is (fetch copies a Request for less than it
    // makes one from a URL), with the real key in `init` where a partner's hook holds it masked.
    const send = async (input: Input, init: RequestInit = {}): Promise<Response> => {
      const remaining = deadlineAt - clock.now();
      if (remaining <= 0) throw new DOMException('', 'TimeoutError');
      const kys = input as Request; // ky always hands its fetch a Request
      const deadline =
        remaining < timeout ? AbortSignal.any([kys.signal, AbortSignal.timeout(remaining)]) : undefined;
      const partners = this.#send;
      try {
        // With fetch options of the partner's, the headers and body are set over them (below), as before.
        if (partners === undefined && unseen && !fetchOptions) {
          const keyed: RequestInit = { ...init };
          // The body rides in `init` too, so that a wrapper's `new Request(input, init)` leaves ky's unread; a
          // request without one gets an empty `init`, as from a bare ky call, which fetch copies for least.
          if (json !== undefined) keyed.body = json;
          if (deadline) keyed.signal = deadline;
          return await fetch(kys, keyed);
        }
        const parts = await keyedParts(kys, this.#bearer, ownRequest ? sent : undefined);
        if (deadline) parts.signal = deadline;
        if (partners === undefined) {
          // ky's request, with the call's headers (the real key) and body in `init`, set over the fetch options.
          const { headers, body, signal } = parts;
          return await fetch(kys, { ...fetchOptions, ...init, headers, body, signal });
        }
        // A partner's fetch gets a Request, as fetch's callers do (tracing finds ky's through it), or, when it
        // takes them, the plain values (`mock.fetch`).
        const plain = this.#plain;
        if (plain !== undefined && fetchOptions === undefined && nothingMore(init)) {
          const { method, headers, body, signal } = parts;
          return await plain({ method, url: kys.url, headers, body, signal });
        }
        const request = new Request(kys.url, parts);
        Object.defineProperty(request, KY_REQUEST, { value: kys });
        return await partners(request, fetchOptions ? { ...fetchOptions, ...init } : init);
      } catch (error) {
        // What a hook is given carries no key, even one a proxy put in its message.
        throw redactCause(error);
      }
    };

    // Only what this call uses: every key ky is given is merged, copied and read again on each request.
    const kyOptions: KyOptions = {
      prefixUrl: this.#options.baseUrl,
      method: call.method,
      headers,
      timeout,
      fetch: send,
      retry: {
        methods: RETRY_METHODS,
        // A mutating call without a key could take effect twice, so only reads and keyed writes are retried.
        limit:
          MUTATING.has(call.method) && !idempotencyKey ? 0 : (options.maxRetries ?? this.#options.maxRetries),
        // The whole decision is the client's (ky's own statusCodes and Retry-After wait are not used), and so is
        // the wait, on the client's clock (the first beforeRetry hook), so ky's own delay is zero.
        delay: () => 0,
        shouldRetry: async ({ error, retryCount }) => {
          if (error instanceof kyLib.HTTPError && !retriedStatus(error.response.status)) return false;
          const failed = await failure(error);
          wait = retryWait(failed, retryCount - 1, clock.now());
          const tooLong =
            failed instanceof APIError && failed.status === 429 && wait > this.#options.maxRetryAfter;
          if (signal?.aborted || tooLong || clock.now() + wait >= deadlineAt) return false;
          const line = `inr-payouts: ${endpoint} failed (${failed.message}); retry in ${Math.round(wait)} ms`;
          logger.debug?.(redact(line), { attempt: attempts, idempotencyKey });
          return true;
        },
      },
      // The wait comes first, as ky's own would: the partner's hooks then see the retry as it is sent.
      hooks: {
        ...hooks,
        beforeRetry: [
          () => clock.sleep(wait, signal).then(() => void attempts++),
          ...(hooks?.beforeRetry ?? []),
        ],
      },
    };
    if (json !== undefined) kyOptions.body = json;
    if (query !== undefined) kyOptions.searchParams = query as SearchParamsOption;
    if (signal) kyOptions.signal = signal;
    if (hooks) {
      // Every hook gets the call as `options.context`; tracing (`inr-payouts/otel`) reads its operation ID.
      kyOptions.context = { ...call };
    }
    let response: Response;
    try {
      response = await kyLib.default(call.path.slice(1), kyOptions);
    } catch (error) {
      throw await failure(error);
    }
    const text = await response.text().catch((cause: unknown) => {
      throw new APIConnectionError(endpoint, { cause, idempotencyKey });
    });
    return this.#answer(call, response, text, endpoint, attempts, idempotencyKey);
  }

  /** A shape B `success: false` is an error whatever the status. */
  #answer<T>(
    call: Call<T>,
    response: Response,
    text: string,
    endpoint: string,
    attempts: number,
    idempotencyKey: string | undefined,
  ): Outcome<T> {
    const { status, headers } = response;
    if (headers.get('x-mock-clock') === 'manual') this.#manualMock = true;
    const body = parseBody(text);
    const envelope =
      typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : undefined;
    if (envelope?.success === false) throw APIError.from({ status, body, headers, endpoint, idempotencyKey });
    if (!envelope || !('data' in envelope)) {
      throw new ResponseValidationError(endpoint, status, [{ path: 'data', message: 'is missing' }], body);
    }
    const data = call.envelopeSchema
      ? parseResponse(call.envelopeSchema, withoutSuccess(envelope), endpoint, status, body, '')
      : call.dataSchema
        ? parseResponse(call.dataSchema, envelope.data, endpoint, status, body)
        : (envelope.data as T);
    // The answer's facts are read only if withResponse() asks.
    const result: Outcome<T> = { data, response, text, attempts, idempotencyKey };
    if (typeof envelope.message === 'string') result.message = envelope.message;
    this.#options.logger.debug?.(`inr-payouts: ${endpoint} -> ${status}`, { attempts });
    return result;
  }
}

/** The envelope's siblings of `data`, without the `success` flag every answer has. */
function withoutSuccess({
  success: _success,
  ...siblings
}: Record<string, unknown>): Record<string, unknown> {
  return siblings;
}
