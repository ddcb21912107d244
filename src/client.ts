import type * as z from 'zod/mini';
import type { ApiPromise } from './core/api-promise.js';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConfigurationError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PayoutError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  UnprocessableEntityError,
  ValidationError,
} from './core/errors.js';
import { type ClientOptions, type ResolvedClientOptions, resolveClientOptions } from './core/options.js';
import { PollTimeoutError } from './core/poll.js';
import { Transport } from './core/transport.js';
import type { HttpMethod, RequestOptions } from './core/types.js';
import { AccountResource } from './resources/account.js';
import { KycResource } from './resources/kyc.js';
import { send } from './resources/shared.js';
import { TransactionsResource } from './resources/transactions.js';
import { UsersResource } from './resources/users.js';
import { WebhooksResource } from './resources/webhooks.js';
import { WebhookVerificationError } from './webhooks/errors.js';

/** A raw request for `client.request()`. */
export interface RawRequest<T = unknown> {
  method: HttpMethod;
  /** Under the base URL, starting with `/`; encode path values yourself. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** JSON, sent as given. */
  body?: unknown;
  /** Validates the response's `data`; without it `data` is returned as received (typed `T`). */
  dataSchema?: z.ZodMiniType<T>;
  /** Send an `Idempotency-Key`. Default: true for POST, PUT, PATCH and DELETE. */
  idempotent?: boolean;
}

/**
 * The client of the Stablecoin-to-INR payout service: one property per resource, every request validated before
 * it is sent, every answer validated and typed.
 * @example
 * ```ts
 * import { PayoutClient } from 'inr-payouts';
 * const client = new PayoutClient({ apiKey: 'pk_sandbox_example', baseUrl: 'https://sandbox.payouts.example' });
 * ```
 */
export class PayoutClient {
  readonly account: AccountResource;
  readonly transactions: TransactionsResource;
  readonly users: UsersResource;
  readonly kyc: KycResource;
  readonly webhooks: WebhooksResource;
  readonly #transport: Transport;
  readonly #options: ClientOptions;

  // As in stripe-node and openai-node: `PayoutClient.APIError`.
  static PayoutError = PayoutError;
  static APIError = APIError;
  static APIConnectionError = APIConnectionError;
  static APITimeoutError = APITimeoutError;
  /** openai-node's name for {@link APITimeoutError}. */
  static APIConnectionTimeoutError = APITimeoutError;
  static APIUserAbortError = APIUserAbortError;
  static BadRequestError = BadRequestError;
  static AuthenticationError = AuthenticationError;
  static PermissionDeniedError = PermissionDeniedError;
  static NotFoundError = NotFoundError;
  static ConflictError = ConflictError;
  static UnprocessableEntityError = UnprocessableEntityError;
  static RateLimitError = RateLimitError;
  static InternalServerError = InternalServerError;
  static ConfigurationError = ConfigurationError;
  static ValidationError = ValidationError;
  static ResponseValidationError = ResponseValidationError;
  static PollTimeoutError = PollTimeoutError;
  static WebhookVerificationError = WebhookVerificationError;

  constructor(options: ClientOptions = {}) {
    const resolved: ResolvedClientOptions = resolveClientOptions(options);
    this.#options = options;
    const transport = new Transport(resolved);
    this.#transport = transport;
    this.account = new AccountResource(transport);
    this.transactions = new TransactionsResource(transport);
    this.users = new UsersResource(transport);
    this.kyc = new KycResource(transport, resolved.fetch);
    this.webhooks = new WebhooksResource(transport, resolved.webhookSecret);
  }

  /**
   * A new client with these options over this one's; this one is unchanged.
   * @example
   * ```ts
   * const patient = client.withOptions({ timeout: 60_000, maxRetries: 5 });
   * await patient.account.retrieve();
   * ```
   */
  withOptions(options: ClientOptions): PayoutClient {
    return new PayoutClient({ ...this.#options, ...options });
  }

  /**
   * Any path and shape (one the assumptions guessed differently, say) with the client's authentication,
   * idempotency, retries and errors; resolves to the answer's `data`.
   * @example
   * ```ts
   * const credit = await client.request<{ availableUsd: string }>({ method: 'GET', path: '/v2/account/credit' });
   * ```
   */
  request<T = unknown>(call: RawRequest<T>, options?: RequestOptions): ApiPromise<T> {
    const build = () => {
      // A full URL would send the API key to another host.
      if (typeof call.path !== 'string' || !call.path.startsWith('/') || call.path.startsWith('//')) {
        const message = 'must be a path starting with / (for example /v2/account), not a full URL';
        throw new ValidationError('client.request', [{ path: 'path', message }]);
      }
      return { ...call };
    };
    return send(this.#transport, build, options);
  }
}
