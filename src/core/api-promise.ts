import { readRateLimit } from './rate-limit.js';
import type { ResponseInfo } from './types.js';

/** The fetch `Response` of a call, with the client's facts: idempotency, replay, rate limit, attempts. */
export type ApiResponse = Response & ResponseInfo;

/** A result with the answer it came from. */
export interface WithResponse<T> {
  data: T;
  /** The body's top-level `message`, when the service sent one. */
  message?: string;
  /** Its body already read into `data`. */
  response: ApiResponse;
}

/** What the transport hands an {@link ApiPromise}; the answer is described only on demand. */
export interface Outcome<T> {
  data: T;
  message?: string;
  /** Its body has been read into `text`. */
  response: Response;
  /** So `asResponse()` can give a readable copy. */
  text: string;
  attempts: number;
  idempotencyKey?: string | undefined;
}

function describe(response: Response, outcome: Outcome<unknown>): ApiResponse {
  const info: Omit<ResponseInfo, 'status' | 'headers'> = {
    idempotentReplayed: response.headers.get('idempotent-replayed') === 'true',
    attempts: outcome.attempts,
  };
  if (outcome.idempotencyKey !== undefined) info.idempotencyKey = outcome.idempotencyKey;
  const rateLimit = readRateLimit(response.headers);
  if (rateLimit) info.rateLimit = rateLimit;
  return Object.assign(response, info);
}

/**
 * The promise every method returns: it resolves to the answer's `data`; `withResponse()` adds the fetch `Response`
 * with the client's facts, and `asResponse()` gives that `Response` alone, its body readable (as in openai-node).
 * @example
 * ```ts
 * const { data, response } = await client.account.retrieve().withResponse();
 * console.log(data.environment, response.status, response.rateLimit?.remaining, response.idempotentReplayed);
 * const raw = await client.account.retrieve().asResponse();
 * console.log(raw.headers.get('content-type'));
 * ```
 */
export class ApiPromise<T> implements Promise<T> {
  readonly #outcome: Promise<Outcome<T>>;
  #data: Promise<T> | undefined;
  #withResponse: Promise<WithResponse<T>> | undefined;

  constructor(outcome: Promise<Outcome<T>>) {
    this.#outcome = outcome;
  }

  /** @internal The transport's outcome, for helpers that build on a call. */
  outcome(): Promise<Outcome<T>> {
    return this.#outcome;
  }

  withResponse(): Promise<WithResponse<T>> {
    this.#withResponse ??= this.#outcome.then((outcome) => {
      const result: WithResponse<T> = { data: outcome.data, response: describe(outcome.response, outcome) };
      if (outcome.message !== undefined) result.message = outcome.message;
      return result;
    });
    return this.#withResponse;
  }

  asResponse(): Promise<ApiResponse> {
    return this.#outcome.then((outcome) => {
      const { status, statusText, headers } = outcome.response;
      const copy = new Response(outcome.text === '' ? null : outcome.text, { status, statusText, headers });
      return describe(copy, outcome);
    });
  }

  #parsed(): Promise<T> {
    this.#data ??= this.#outcome.then((r) => r.data);
    return this.#data;
  }

  // biome-ignore lint/suspicious/noThenProperty: this class is a promise by design.
  then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#parsed().then(onfulfilled, onrejected);
  }

  catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.#parsed().catch(onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#parsed().finally(onfinally);
  }

  readonly [Symbol.toStringTag]: string = 'ApiPromise';
}
