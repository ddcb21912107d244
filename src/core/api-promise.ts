import { readRateLimit } from './rate-limit.js';
import type { ResponseInfo } from './types.js';

/**
 * The fetch `Response` of a call, with the facts the client adds: the idempotency key it carried, whether the
 * service replayed a stored answer, the rate-limit figures and the number of attempts. `status` and `headers` are
 * the `Response`'s own.
 *
 * @example
 * ```ts
 * import type { ApiResponse } from 'inr-payouts';
 * const show = (response: ApiResponse) => `${response.status} ${response.statusText} attempts=${response.attempts}`;
 * ```
 */
export type ApiResponse = Response & ResponseInfo;

/**
 * A result with the answer it came from.
 *
 * @example
 * ```ts
 * import type { Account, WithResponse } from 'inr-payouts';
 * const result: WithResponse<Account> = await client.account.retrieve().withResponse();
 * console.log(result.response.status, result.response instanceof Response, result.data.environment); // 200 true sandbox
 * ```
 */
export interface WithResponse<T> {
  data: T;
  /** The body's top-level `message`, when the service sent one. */
  message?: string;
  /** The fetch `Response` (its body already read into `data`), with the client's facts about the call. */
  response: ApiResponse;
}

/** What the transport hands an {@link ApiPromise}: the data and what it takes to describe the answer on demand. */
export interface Outcome<T> {
  data: T;
  message?: string;
  /** The answer; its body has been read into `text`. */
  response: Response;
  /** The body as received, so `asResponse()` can give a readable copy. */
  text: string;
  attempts: number;
  idempotencyKey?: string | undefined;
}

/** The answer with the client's facts added (computed once, only when asked for). */
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
 * The promise every method returns: it resolves to the response's `data`; `withResponse()` also gives the fetch
 * `Response` with the status, headers, rate-limit figures and idempotency facts, and `asResponse()` gives that
 * `Response` alone, its body still readable (as in openai-node).
 *
 * @example
 * ```ts
 * import { PayoutClient } from 'inr-payouts';
 * import { createMockService } from 'inr-payouts/mock';
 * import { setupServer } from 'msw/node';
 *
 * const mock = createMockService();
 * const server = setupServer(...mock.handlers);
 * server.listen();
 * const client = new PayoutClient({ apiKey: mock.sandboxKey, baseUrl: mock.baseUrl });
 * const { data, response } = await client.account.retrieve().withResponse();
 * console.log(data.environment, response.status, response.rateLimit?.limit);
 * const raw = await client.account.retrieve().asResponse();
 * console.log(raw.headers.get('content-type'), (await raw.json()).data.environment);
 * server.close();
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

  /** Resolves to the data together with the fetch `Response` (status, headers) and the client's facts. */
  withResponse(): Promise<WithResponse<T>> {
    this.#withResponse ??= this.#outcome.then((outcome) => {
      const result: WithResponse<T> = { data: outcome.data, response: describe(outcome.response, outcome) };
      if (outcome.message !== undefined) result.message = outcome.message;
      return result;
    });
    return this.#withResponse;
  }

  /**
   * Resolves to the fetch `Response` alone, after the client's retries and error mapping, with its body readable
   * (`await response.json()`) and the client's facts (`attempts`, `idempotentReplayed`, `rateLimit`).
   */
  asResponse(): Promise<ApiResponse> {
    return this.#outcome.then((outcome) => {
      const { response, text } = outcome;
      const copy = new Response(text === '' ? null : text, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
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
