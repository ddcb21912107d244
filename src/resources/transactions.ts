import type { ApiPromise } from '../core/api-promise.js';
import type { PollOptions } from '../core/poll.js';
import type { Transport } from '../core/transport.js';
import type { RequestOptions } from '../core/types.js';
import type {
  CreatedTransaction,
  PrefundedTransaction,
  PrefundedTransactionCreateRequest,
  Transaction,
  TransactionCreateRequest,
} from '../schemas/transactions.js';
import { callEndpoint } from './shared.js';
import {
  type CreateWithRecoveryOptions,
  type CreateWithRecoveryResult,
  createWithRecovery,
} from './transactions/recovery.js';
import {
  type AttributedTransaction,
  type WaitForStatusOptions,
  waitForAttribution,
  waitForStatus,
} from './transactions/wait.js';

/**
 * Transactions (spec 2.4, 4.2): create, read by ID or `partnerReference`, wait for a status or the payout's rate
 * attribution, and recover a create that timed out.
 * @example
 * ```ts
 * const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
 * const created = await client.transactions.create({ userId, amount: '100.00', asset: 'USDC', network: 'polygon', partnerReference: 'order-42' });
 * // The mock plays the deposit; against the service the user sends the stablecoin.
 * await mock.clock.advance(mock.helpers.transactions.simulateDeposit({ transactionId: created.transactionId }));
 * await mock.clock.advance('1m');
 * const done = await client.transactions.waitForStatus(created.transactionId);
 * console.log(done.transaction.status, done.payout?.utr); // completed SBX…
 * ```
 */
export class TransactionsResource {
  constructor(private readonly transport: Transport) {}

  /**
   * `POST /v2/transactions` (shapes assumed, docs/assumptions.md), always with an `Idempotency-Key`: the user
   * sends `expectedAmount` to `depositAddress` before `expiresAt`. The class example shows the call.
   */
  create(params: TransactionCreateRequest, options?: RequestOptions): ApiPromise<CreatedTransaction> {
    return callEndpoint(this.transport, 'transactions.create', { body: params }, options);
  }

  /**
   * `POST /v2/transactions/prefunded` (approved partners): INR at once on credit; the stablecoin within 24 h.
   * @example
   * ```ts
   * mock.helpers.accounts.update({ prefunded: { approved: true, creditLimitUsd: '1000' } });
   * const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
   * const prefunded = await client.transactions.createPrefunded({ userId, amount: '500', asset: 'USDT', network: 'polygon' });
   * ```
   */
  createPrefunded(
    params: PrefundedTransactionCreateRequest,
    options?: RequestOptions,
  ): ApiPromise<PrefundedTransaction> {
    return callEndpoint(this.transport, 'transactions.createPrefunded', { body: params }, options);
  }

  /**
   * `GET /v2/transactions/{transactionId}`, by ID or by your `partnerReference`.
   * @example
   * ```ts
   * const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
   * await client.transactions.create({ userId, amount: '100', asset: 'USDC', network: 'polygon', partnerReference: 'order-42' });
   * const { transaction, deposit, quote, payout } = await client.transactions.retrieve('order-42');
   * ```
   */
  retrieve(idOrPartnerReference: string, options?: RequestOptions): ApiPromise<Transaction> {
    const params = { transactionId: idOrPartnerReference };
    return callEndpoint(this.transport, 'transactions.retrieve', { params }, options);
  }

  /**
   * A create a timeout never doubles: with no answer, it looks the transaction up by `partnerReference`
   * (required) before resending with the same `Idempotency-Key`.
   * @example
   * ```ts
   * const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
   * const result = await client.transactions.createWithRecovery({ userId, amount: '100', asset: 'USDC', network: 'polygon', partnerReference: 'order-42' });
   * console.log(result.transactionId, result.recovered);
   * ```
   */
  createWithRecovery(
    params: TransactionCreateRequest,
    options?: CreateWithRecoveryOptions,
  ): Promise<CreateWithRecoveryResult> {
    return createWithRecovery(this, params, options);
  }

  /**
   * Polls until one of `statuses` (default: the end states; a misspelt one fails to compile); another end state
   * throws `TransactionStatusError`.
   * @example
   * ```ts
   * const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
   * await client.transactions.create({ userId, amount: '100', asset: 'USDC', network: 'arbitrum', partnerReference: 'order-42' });
   * const tx = await client.transactions.waitForStatus('order-42', { statuses: ['created', 'deposit_pending'], interval: 5_000 });
   * ```
   */
  waitForStatus(idOrPartnerReference: string, options?: WaitForStatusOptions): Promise<Transaction> {
    return waitForStatus(this, idOrPartnerReference, options, this.transport.pollClock);
  }

  /**
   * Polls until the payout carries its rate attribution (spec 2.4 rule 4), from any status before it. Without a
   * `deadline`, each stage gets its time from when first seen: `TRANSACTION_POLL.deadline` (15 min) while
   * `created`, `confirmationMs(network)` plus `ATTRIBUTION_POLL.deadline` (2 min) once the deposit is seen, 2 min
   * once the payout starts. Throws at once `TransactionStatusError` (failed, cancelled) or `UnattributedPayoutError`
   * (prefunded, or marked never attributed by the mock); the deadline throws `PollTimeoutError`.
   * @example
   * ```ts
   * mock.helpers.tranches.add([{ rate: '83.10', inrAmount: '100000.00' }]); // the INR escrow pool
   * const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
   * const { transactionId } = await client.transactions.create({ userId, amount: '100', asset: 'USDC', network: 'polygon' });
   * mock.helpers.transactions.simulateDeposit({ transactionId }); // its 256 s of confirmations still to come
   * const onMockClock = mock.createClient(); // its polls move the mock's clock instead of sleeping
   * const { payout } = await onMockClock.transactions.waitForAttribution(transactionId);
   * console.log(payout.rate, payout.usdtEquivalent, payout.allocations.length); // 83.10 100.180505 1
   * ```
   */
  waitForAttribution(
    idOrPartnerReference: string,
    options?: PollOptions & { requestOptions?: RequestOptions },
  ): Promise<AttributedTransaction> {
    return waitForAttribution(this, idOrPartnerReference, options, this.transport.pollClock);
  }
}
