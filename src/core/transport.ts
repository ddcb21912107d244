import type { Hooks, Input, Options as KyOptions, SearchParamsOption } from 'ky';
import { validate as isUuid, v4 as uuidv4 } from 'uuid';
import type * as z from 'zod/mini';
import { PayoutError } from '../shared/payout-error.js';
import { isPlainObject } from '../shared/plain-object.js';
import { redact, redactCause } from '../shared/redact.js';
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
import { viewedHooks } from './hooks.js';
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
const NOT_UUID =
  'must be a UUID (spec section 8), such as crypto.randomUUID() gives; reuse it to repeat the call';

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
  readonly #bearer: string;
  /** ky's request carries the real key; the partner's hooks see it masked (`./hooks.ts`). */
  readonly #headers: Record<string, string>;
  readonly #hooks: Hooks | undefined;

  constructor(options: ResolvedClientOptions) {
    this.#options = options;
    this.#bearer = `Bearer ${options.apiKey}`;
    this.#headers = lowerCased(options.defaultHeaders, { accept: 'application/json' });
    this.#headers.authorization = this.#bearer;
    this.#hooks = options.hooks && viewedHooks(options.hooks, this.#bearer);
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
    if (ownKey !== undefined && !isUuid(ownKey)) {
      throw new ValidationError(endpoint, [{ path: 'idempotencyKey', message: NOT_UUID }]);
    }
    const keyed = call.idempotent ?? MUTATING.has(call.method);
    if (idempotencyKey === undefined && keyed && options.idempotencyKey !== false) {
      idempotencyKey = options.idempotencyKey ?? uuidv4();
      headers['idempotency-key'] = idempotencyKey;
    }
    const { clock, logger } = this.#options;
    const { timeout = this.#options.timeout, deadline = this.#options.deadline, signal } = options;
    const facts: CallFacts = { endpoint, idempotencyKey, timeout, deadline, signal };
    const deadlineAt = clock.now() + deadline;
    let attempts = 1;
    let wait = 0;
    const kyLib = kyLoaded ?? (await loadKy());
    // shouldRetry and the final catch see the same error: it is mapped (and its body read) once.
    let last: { error: unknown; failure: Promise<Error> } | undefined;
    const failure = (error: unknown): Promise<Error> => {
      if (last === undefined || last.error !== error) last = { error, failure: toError(error, facts, kyLib) };
      return last.failure;
    };

    // Each attempt: ky's request as it is, to the partner's fetch or the global one (looked up now, so that one
    // installed later, msw's, answers), with the deadline's signal when it comes before the attempt's time-out.
    const send = async (input: Input, init: RequestInit = {}): Promise<Response> => {
      const remaining = deadlineAt - clock.now();
      if (remaining <= 0) throw new DOMException('', 'TimeoutError');
      const request = input as Request; // ky always hands its fetch a Request
      const sent =
        remaining < timeout
          ? { ...init, signal: AbortSignal.any([request.signal, AbortSignal.timeout(remaining)]) }
          : init;
      try {
        return await (this.#options.fetch ?? fetch)(request, sent);
      } catch (error) {
        // What a hook is given carries no key, even one a proxy put in its message.
        throw redactCause(error);
      }
    };

    const hooks = this.#hooks;
    // Only what this call uses: every key ky is given is merged, copied and read again on each request. The
    // fetch options ky does not know reach the fetch in `init`; the others are the Request's.
    const kyOptions: KyOptions = {
      ...this.fetchOptions(options),
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
    // ky's `json` would serialise the same way and add the same header, but through one more Headers merge.
    if (body !== undefined) {
      kyOptions.body = JSON.stringify(body);
      headers['content-type'] ??= 'application/json';
    }
    if (query !== undefined) kyOptions.searchParams = query as SearchParamsOption;
    if (signal) kyOptions.signal = signal;
    // Every hook gets the call as `options.context`; tracing (`inr-payouts/otel`) reads its operation ID.
    if (hooks) kyOptions.context = { ...call };
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
    const envelope = isPlainObject(body) ? body : undefined;
    if (envelope?.success === false) throw APIError.from({ status, body, headers, endpoint, idempotencyKey });
    if (!envelope || !('data' in envelope)) {
      throw new ResponseValidationError(endpoint, status, [{ path: 'data', message: 'is missing' }], body);
    }
    // The envelope's siblings of `data`, without the `success` flag every answer has.
    const { success: _success, ...siblings } = envelope;
    const data = call.envelopeSchema
      ? parseResponse(call.envelopeSchema, siblings, endpoint, status, body, '')
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
