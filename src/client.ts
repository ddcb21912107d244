import type * as z from 'zod/mini';
import type { ApiPromise } from './core/api-promise.js';
import { ValidationError } from './core/errors.js';
import { type ClientOptions, type ResolvedClientOptions, resolveClientOptions } from './core/options.js';
import { Transport } from './core/transport.js';
import type { HttpMethod, RequestOptions } from './core/types.js';
import { AccountResource } from './resources/account.js';
import { KycResource } from './resources/kyc.js';
import { send } from './resources/shared.js';
import { TransactionsResource } from './resources/transactions.js';
import { UsersResource } from './resources/users.js';
import { WebhooksResource } from './resources/webhooks.js';

/**
 * A raw request for `client.request()`: any path under the service, with the client's authentication,
 * idempotency keys, retries, timeouts and error mapping.
 *
 * @example
 * ```ts
 * import type { RawRequest } from 'inr-payouts';
 * const call: RawRequest = { method: 'GET', path: '/v2/account/credit' };
 * ```
 */
export interface RawRequest<T = unknown> {
  method: HttpMethod;
  /** A path under the base URL, starting with `/` (for example `/v2/users/usr_1/kyc/profile`); encode path values yourself. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** The JSON body, sent as given. */
  body?: unknown;
  /** Validates the response's `data`; without it `data` is returned as received (typed `T`). */
  dataSchema?: z.ZodMiniType<T>;
  /** Send an `Idempotency-Key`. Default: true for POST, PUT, PATCH and DELETE. */
  idempotent?: boolean;
}

/**
 * The client of the Stablecoin-to-INR payout service: one property per resource, every request validated before
 * it is sent, every answer validated and typed.
 *
 * @example
 * ```ts
 * import { PayoutClient } from 'inr-payouts';
 * const client = new PayoutClient({ apiKey: 'pk_sandbox_example', baseUrl: 'https://sandbox.payouts.example' });
 * console.log(typeof client.kyc.bank.verify); // 'function'
 * ```
 */
export class PayoutClient {
  /** The account: `retrieve`, `updateDeveloperFee`, `listActivity`, `retrieveCredit`. */
  readonly account: AccountResource;
  /** Transactions: `create`, `createPrefunded`, `retrieve`, `createWithRecovery`, `waitForStatus`, `waitForAttribution`. */
  readonly transactions: TransactionsResource;
  /** Users: `create`; `mobile` and `email` OTP. */
  readonly users: UsersResource;
  /** KYC: `status`, `refresh`, `extendedStatus`, and one sub-resource per step. */
  readonly kyc: KycResource;
  /** Webhook events: `list`, `listAutoPaging`, `retry`. */
  readonly webhooks: WebhooksResource;
  readonly #transport: Transport;

  constructor(options?: ClientOptions) {
    const resolved: ResolvedClientOptions = resolveClientOptions(options);
    const transport = new Transport(resolved);
    this.#transport = transport;
    this.account = new AccountResource(transport);
    this.transactions = new TransactionsResource(transport);
    this.users = new UsersResource(transport);
    this.kyc = new KycResource(transport, resolved.fetch);
    this.webhooks = new WebhooksResource(transport);
  }

  /**
   * A typed raw request: reaches any path and shape (for example one the assumptions table guessed differently
   * from the real service) with the client's authentication, idempotency, retries and errors. Resolves to the
   * response's `data`; `.withResponse()` gives the status and headers.
   * @example
   * ```ts
   * const credit = await client.request<{ availableUsd: string }>({ method: 'GET', path: '/v2/account/credit' });
   * ```
   */
  request<T = unknown>(call: RawRequest<T>, options?: RequestOptions): ApiPromise<T> {
    return send(
      this.#transport,
      () => {
        // A full URL would send the API key to another host.
        if (typeof call.path !== 'string' || !call.path.startsWith('/') || call.path.startsWith('//')) {
          throw new ValidationError('client.request', [
            {
              path: 'path',
              message: 'must be a path starting with / (for example /v2/account), not a full URL',
            },
          ]);
        }
        return { ...call };
      },
      options,
    );
  }
}
