/**
 * The effects keyed creates produced, recorded when their answer is kept for replay: which `Idempotency-Key`
 * made which user or transaction. The exactly-once ledger (`mock/observe/ledger.ts`) reads it with the
 * transactions' own `partnerReference`.
 */

/** One keyed create that took effect. */
export interface LedgerEntry {
  accountId: string;
  idempotencyKey: string;
  method: string;
  path: string;
  kind: 'user' | 'transaction';
  /** The user or transaction ID the create answered. */
  id: string;
}
