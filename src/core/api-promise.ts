import type { ResponseInfo } from './types.js';

/**
 * A result with the answer it came from.
 *
 * @example
 * ```ts
 * import type { Account, WithResponse } from 'inr-payouts';
 * const result: WithResponse<Account> = await client.account.retrieve().withResponse();
 * console.log(result.response.status, result.data.environment); // 200 sandbox
 * ```
 */
export interface WithResponse<T> {
  data: T;
  /** The body's top-level `message`, when the service sent one. */
  message?: string;
  response: ResponseInfo;
}

/**
 * The promise every method returns: it resolves to the response's `data`, and `withResponse()` also gives the
 * status, headers, rate-limit figures and idempotency facts of the answer.
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
 * server.close();
 * ```
 */
export class ApiPromise<T> implements Promise<T> {
  readonly #result: Promise<WithResponse<T>>;
  #data: Promise<T> | undefined;

  constructor(result: Promise<WithResponse<T>>) {
    this.#result = result;
  }

  /** Resolves to the data together with the answer's status, headers, rate-limit figures and message. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#result;
  }

  #parsed(): Promise<T> {
    this.#data ??= this.#result.then((r) => r.data);
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

  readonly [Symbol.toStringTag] = 'ApiPromise';
}
