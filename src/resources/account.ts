import type { ApiPromise } from '../core/api-promise.js';
import type { Transport } from '../core/transport.js';
import type { RequestOptions } from '../core/types.js';
import type {
  Account,
  ActivityList,
  ActivityQuery,
  Credit,
  DeveloperFee,
  DeveloperFeeRequest,
} from '../schemas/account.js';
import { callEndpoint } from './shared.js';

/**
 * The partner's account (spec 4.1): read it, set the developer fee, read recent activity and the prefunded credit.
 * @example
 * ```ts
 * const { environment, limits } = await client.account.retrieve();
 * ```
 */
export class AccountResource {
  constructor(private readonly transport: Transport) {}

  /** `GET /v2/account`: the account (spec 2.1); the class example shows the call. */
  retrieve(options?: RequestOptions): ApiPromise<Account> {
    return callEndpoint(this.transport, 'account.retrieve', {}, options);
  }

  /**
   * `PUT /v2/account/developer-fee`: sets the fee on all new transactions; `percent` is a fraction from 0 to 0.05.
   * @example
   * ```ts
   * await client.account.updateDeveloperFee({ enabled: true, percent: 0.01 });
   * ```
   */
  updateDeveloperFee(params: DeveloperFeeRequest, options?: RequestOptions): ApiPromise<DeveloperFee> {
    return callEndpoint(this.transport, 'account.updateDeveloperFee', { body: params }, options);
  }

  /**
   * `GET /v2/account/activity`: the most recent transactions; `limit` from 1 to 50 (the service's default is 10).
   * @example
   * ```ts
   * const recent = await client.account.listActivity({ limit: 50 });
   * ```
   */
  listActivity(query: ActivityQuery = {}, options?: RequestOptions): ApiPromise<ActivityList> {
    return callEndpoint(this.transport, 'account.listActivity', { query }, options);
  }

  /**
   * `GET /v2/account/credit` (path assumed, docs/assumptions.md): the prefunded credit and its figures.
   * @example
   * ```ts
   * const { availableUsd } = await client.account.retrieveCredit();
   * ```
   */
  retrieveCredit(options?: RequestOptions): ApiPromise<Credit> {
    return callEndpoint(this.transport, 'account.retrieveCredit', {}, options);
  }
}
