import type { ApiPromise } from '../core/api-promise.js';
import type { Transport } from '../core/transport.js';
import type { RequestOptions } from '../core/types.js';
import {
  type Account,
  Account as AccountSchema,
  type ActivityList,
  ActivityList as ActivityListSchema,
  type ActivityQuery,
  ActivityQuery as ActivityQuerySchema,
  type Credit,
  Credit as CreditSchema,
  type DeveloperFee,
  type DeveloperFeeRequest,
  DeveloperFeeRequest as DeveloperFeeRequestSchema,
  DeveloperFee as DeveloperFeeSchema,
} from '../schemas/account.js';
import { send } from './shared.js';

/**
 * The partner's account (spec 4.1): read it, set the developer fee, read recent activity and the prefunded credit.
 * @example
 * ```ts
 * const { environment, limits } = await client.account.retrieve();
 * ```
 */
export class AccountResource {
  constructor(private readonly transport: Transport) {}

  /**
   * `GET /v2/account`: the account (spec 2.1).
   * @example
   * ```ts
   * const { name, environment } = await client.account.retrieve();
   * ```
   */
  retrieve(options?: RequestOptions): ApiPromise<Account> {
    return send(
      this.transport,
      () => ({ method: 'GET', path: '/v2/account', dataSchema: AccountSchema }),
      options,
    );
  }

  /**
   * `PUT /v2/account/developer-fee`: sets the fee on all new transactions; `percent` is a fraction from 0 to 0.05.
   * @example
   * ```ts
   * await client.account.updateDeveloperFee({ enabled: true, percent: 0.01 });
   * ```
   */
  updateDeveloperFee(params: DeveloperFeeRequest, options?: RequestOptions): ApiPromise<DeveloperFee> {
    return send(
      this.transport,
      () => ({
        method: 'PUT',
        path: '/v2/account/developer-fee',
        body: params,
        bodySchema: DeveloperFeeRequestSchema,
        dataSchema: DeveloperFeeSchema,
      }),
      options,
    );
  }

  /**
   * `GET /v2/account/activity`: the most recent transactions; `limit` from 1 to 50 (the service's default is 10).
   * @example
   * ```ts
   * const recent = await client.account.listActivity({ limit: 50 });
   * ```
   */
  listActivity(query: ActivityQuery = {}, options?: RequestOptions): ApiPromise<ActivityList> {
    return send(
      this.transport,
      () => ({
        method: 'GET',
        path: '/v2/account/activity',
        query,
        querySchema: ActivityQuerySchema,
        dataSchema: ActivityListSchema,
      }),
      options,
    );
  }

  /**
   * `GET /v2/account/credit` (path assumed, docs/assumptions.md): the prefunded credit and its figures.
   * @example
   * ```ts
   * const { availableUsd } = await client.account.retrieveCredit();
   * ```
   */
  retrieveCredit(options?: RequestOptions): ApiPromise<Credit> {
    return send(
      this.transport,
      () => ({ method: 'GET', path: '/v2/account/credit', dataSchema: CreditSchema }),
      options,
    );
  }
}
