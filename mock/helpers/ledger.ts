/** The exactly-once ledger as a helper: `helpers.ledger()`, served as `GET /__mock/ledger`. */

import type { ServiceInternals } from '../engine/internals.js';
import { type Ledger, readLedger } from '../observe/ledger.js';

/** The ledger helper of one service. */
export function ledgerHelper(mock: ServiceInternals) {
  /**
   * Per `Idempotency-Key` and per `partnerReference`: how many users, transactions and payouts each logical
   * create produced; transactions created with neither are grouped per user (`unattributedByUser`), where more
   * than one cannot be told from a resend. `duplicates` lists every row with more than one effect of a kind, and
   * `ok` is false then.
   * @example
   * ```ts
   * const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
   * await client.transactions.createWithRecovery({ userId, amount: '100', asset: 'USDT', network: 'polygon', partnerReference: 'order-1' });
   * const ledger = mock.helpers.ledger();
   * console.log(ledger.ok, ledger.byPartnerReference[0]?.transactions); // true 1
   * ```
   */
  return (): Ledger => readLedger(mock.state);
}
