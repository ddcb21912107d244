import { validate as isUuid, v4 as uuidv4 } from 'uuid';
import type * as z from 'zod/mini';
import { redact } from '../shared/redact.js';
import { ApiPromise, type Outcome } from './api-promise.js';
import type { ClientClock } from './clock.js';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  ResponseValidationError,
  ValidationError,
} from './errors.js';
import type { ResolvedClientOptions } from './options.js';
import { retryDelay } from './retry.js';
import type { FetchOptions, HttpMethod, RequestOptions } from './types.js';
import { parseRequest, parseResponse } from './validate.js';

/** One call to the service, as a resource method describes it. */
export interface Call<T> {
  method: HttpMethod;
  /** `/v2/...`, path parameters already encoded with {@link pathParam}. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** The caller's input; validated against `bodySchema` before anything is sent, and the parsed value is sent. */
  body?: unknown;
  bodySchema?: z.ZodMiniType;
  querySchema?: z.ZodMiniType<Record<string, unknown>>;
  /** Validates the envelope's `data`. Without it `data` is returned as received. */
  dataSchema?: z.ZodMiniType<T>;
  /**
   * Validates and returns the whole envelope instead of its `data`, for answers with siblings of `data` (the
   * webhook list's `pagination`).
   */
  envelopeSchema?: z.ZodMiniType<T>;
  /** Sends an `Idempotency-Key`. Default: true for POST, PUT, PATCH and DELETE. */
  idempotent?: boolean;
}

/**
 * Encodes one path parameter after checking that it is a non-empty string, so a missing ID fails here with a clear
 * message instead of reaching a different endpoint.
 *
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
  // encodeURIComponent keeps dots, and URL parsing resolves `.` and `..` segments: `kyc.status('..')` would
  // otherwise read another endpoint.
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

const MUTATING: ReadonlySet<HttpMethod> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

interface Attempt {
  response: Response;
  /** The body as received, and parsed as JSON when it is JSON. */
  text: string;
  body: unknown;
}

/** An attempt's own timeout signal rejects fetch with `TimeoutError` (or `AbortError` in older runtimes). */
function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function hasKeys(record: Record<string, string>): boolean {
  for (const _ in record) return true;
  return false;
}

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

/**
 * The one pipeline every endpoint rides on: validation, headers, idempotency keys, per-attempt timeouts, the
 * overall deadline, retries with backoff or the service's own wait, abort, and error mapping. Built on the
 * platform's `fetch` alone: the partner interface's retry, time-out and idempotency rules must run here anyway, so a
 * request library's own retries, hooks and request copies would be work (and 4.5 KB of bundle) nobody asked for.
 */
export class Transport {
  readonly #options: ResolvedClientOptions;
  readonly #send: (url: string, init: RequestInit) => Promise<Response>;

  constructor(options: ResolvedClientOptions) {
    this.#options = options;
    this.#send = options.fetch ?? ((input: string, init: RequestInit) => fetch(input, init));
  }

  /** The clock every wait runs on (retry waits, deadlines, polls). */
  get clock(): ClientClock {
    return this.#options.clock;
  }

  /** The client's `fetchOptions` with the call's own over them. */
  fetchOptions(options?: RequestOptions): FetchOptions | undefined {
    const own = options?.fetchOptions;
    return own ? { ...this.#options.fetchOptions, ...own } : this.#options.fetchOptions;
  }

  /** Sends one logical call (with its retries) and resolves to the envelope's `data`. */
  request<T>(call: Call<T>, options: RequestOptions = {}): ApiPromise<T> {
    return new ApiPromise(this.#run(call, options));
  }

  async #run<T>(call: Call<T>, options: RequestOptions): Promise<Outcome<T>> {
    const endpoint = `${call.method} ${call.path}`;
    const body = call.bodySchema ? parseRequest(call.bodySchema, call.body ?? {}, endpoint) : call.body;
    const query = call.querySchema ? parseRequest(call.querySchema, call.query ?? {}, endpoint) : call.query;

    const headers: Record<string, string> = {
      Accept: 'application/json',
      ...this.#options.defaultHeaders,
      ...options.headers,
      Authorization: `Bearer ${this.#options.apiKey}`,
    };
    // Only headers the caller set can hold a Content-Type or an Idempotency-Key of their own: without any, the
    // case-insensitive searches below are skipped.
    const callerHeaders =
      hasKeys(this.#options.defaultHeaders) || (options.headers !== undefined && hasKeys(options.headers));
    // Serialised once per call, not per attempt.
    const payload = body === undefined ? undefined : JSON.stringify(body);
    if (payload !== undefined && !(callerHeaders && headerValue(headers, 'Content-Type') !== undefined)) {
      headers['Content-Type'] = 'application/json';
    }
    const idempotent = call.idempotent ?? MUTATING.has(call.method);
    const headerKey = callerHeaders ? headerValue(headers, 'Idempotency-Key') : undefined;
    // The caller's own key, as a header or an option, must be a UUID; a generated one is one by construction.
    const ownKey = headerKey ?? (options.idempotencyKey || undefined);
    if (ownKey !== undefined && !isUuid(ownKey)) throw notUuid(endpoint);
    let idempotencyKey = headerKey;
    if (idempotencyKey === undefined && idempotent && options.idempotencyKey !== false) {
      idempotencyKey = options.idempotencyKey ?? uuidv4();
      headers['Idempotency-Key'] = idempotencyKey;
    }
    // A mutating call without a key could take effect twice, so only reads and keyed writes are retried.
    const retryable = !MUTATING.has(call.method) || idempotencyKey !== undefined;
    const maxRetries = retryable ? (options.maxRetries ?? this.#options.maxRetries) : 0;
    const timeout = options.timeout ?? this.#options.timeout;
    const deadlineMs = options.deadline ?? this.#options.deadline;
    const clock = this.#options.clock;
    const deadlineAt = clock.now() + deadlineMs;
    const fetchOptions = this.fetchOptions(options);

    // A string, not a URL object: fetch parses it once anyway.
    let url = this.#options.baseUrl + call.path;
    if (query) {
      const search = new URLSearchParams();
      for (const [key, value] of Object.entries(query)) {
        if (value !== undefined) search.set(key, String(value));
      }
      const encoded = search.toString();
      if (encoded) url += `${url.includes('?') ? '&' : '?'}${encoded}`;
    }

    for (let attempt = 1; ; attempt++) {
      const remaining = deadlineAt - clock.now();
      if (remaining <= 0) throw new APITimeoutError(endpoint, deadlineMs, { idempotencyKey, deadline: true });
      const attemptTimeout = Math.min(timeout, remaining);
      let outcome: Attempt | Error;
      try {
        outcome = await this.#attempt(
          url,
          call.method,
          headers,
          payload,
          attemptTimeout,
          options.signal,
          fetchOptions,
        );
      } catch (error) {
        if (options.signal?.aborted) throw new APIUserAbortError(endpoint, { cause: options.signal.reason });
        outcome = isTimeout(error)
          ? attemptTimeout < timeout
            ? new APITimeoutError(endpoint, deadlineMs, { idempotencyKey, deadline: true })
            : new APITimeoutError(endpoint, timeout, { idempotencyKey })
          : new APIConnectionError(endpoint, { cause: error, idempotencyKey });
      }

      if (!(outcome instanceof Error) && outcome.response.ok && !isFailureBody(outcome.body)) {
        return this.#success(call, outcome, endpoint, attempt, idempotencyKey);
      }
      const failure =
        outcome instanceof Error
          ? outcome
          : APIError.from({
              status: outcome.response.status,
              body: outcome.body,
              headers: outcome.response.headers,
              endpoint,
              idempotencyKey,
            });

      const wait =
        attempt <= maxRetries
          ? retryDelay(failure, attempt - 1, this.#options.maxRetryAfter, clock.now())
          : undefined;
      if (wait === undefined || clock.now() + wait >= deadlineAt) throw failure;
      this.#options.logger.debug?.(
        redact(`inr-payouts: ${endpoint} failed (${failure.message}); retry in ${Math.round(wait)} ms`),
        {
          attempt,
          idempotencyKey,
        },
      );
      try {
        await clock.sleep(wait, options.signal);
      } catch (reason) {
        throw new APIUserAbortError(endpoint, { cause: reason });
      }
    }
  }

  async #attempt(
    url: string,
    method: HttpMethod,
    headers: Record<string, string>,
    body: string | undefined,
    timeout: number,
    signal: AbortSignal | undefined,
    fetchOptions: FetchOptions | undefined,
  ): Promise<Attempt> {
    // One controller and one cleared timer per attempt: AbortSignal.timeout + AbortSignal.any cost more per
    // request and leave their timers running after the answer.
    const controller = new AbortController();
    const timer = setTimeout(
      // Only the name is read (isTimeout); the caller sees APITimeoutError's message.
      () => controller.abort(new DOMException('', 'TimeoutError')),
      timeout,
    );
    // The caller's signal is followed only when there is one: no listener, no closure otherwise.
    const onAbort = signal ? () => controller.abort(signal.reason) : undefined;
    if (signal && onAbort) {
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    }
    try {
      const init: RequestInit = { ...fetchOptions, method, headers, signal: controller.signal };
      if (body !== undefined) init.body = body;
      const response = await this.#send(url, init);
      const text = await response.text();
      return { response, text, body: parseBody(text) };
    } finally {
      clearTimeout(timer);
      if (signal && onAbort) signal.removeEventListener('abort', onAbort);
    }
  }

  #success<T>(
    call: Call<T>,
    outcome: Attempt,
    endpoint: string,
    attempts: number,
    idempotencyKey: string | undefined,
  ): Outcome<T> {
    const { response, body, text } = outcome;
    const envelope =
      typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : undefined;
    if (!envelope || !('data' in envelope)) {
      throw new ResponseValidationError(
        endpoint,
        response.status,
        [{ path: 'data', message: 'is missing' }],
        body,
      );
    }
    const data = call.envelopeSchema
      ? parseResponse(call.envelopeSchema, withoutSuccess(envelope), endpoint, response.status, body, '')
      : call.dataSchema
        ? parseResponse(call.dataSchema, envelope.data, endpoint, response.status, body)
        : (envelope.data as T);
    // The answer's facts (rate limit, replay) are read only if withResponse() asks for them.
    const result: Outcome<T> = { data, response, text, attempts, idempotencyKey };
    if (typeof envelope.message === 'string') result.message = envelope.message;
    this.#options.logger.debug?.(`inr-payouts: ${endpoint} -> ${response.status}`, { attempts });
    return result;
  }
}

/** The envelope's siblings of `data`, without the `success` flag every answer has. */
function withoutSuccess(envelope: Record<string, unknown>): Record<string, unknown> {
  const { success: _success, ...rest } = envelope;
  return rest;
}

/** Shape B answers `success: false`; the spec does not promise an error status with it, so the body decides. */
function isFailureBody(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { success?: unknown }).success === false;
}
