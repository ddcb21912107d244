/**
 * The exactly-once ledger: for every logical create, per `Idempotency-Key` and per `partnerReference`, how many
 * users, transactions and payouts it produced, with any logical create that produced more than one flagged.
 * Keys come from the entries recorded when a keyed create's answer was kept (`recordKeyedEffect`), references
 * from the transactions themselves; payouts are the payout legs of those transactions. Transactions created with
 * neither are grouped per user, and a user with more than one of them is flagged too: nothing tells a second
 * order from a resend of the first.
 */

import { CONTRACTS, type OperationId } from '../../src/endpoints/index.js';
import type { CachedResponse } from '../state/http.js';
import type { LedgerEntry } from '../state/ledger.js';
import type { MockState } from '../state/mock-state.js';
import type { TransactionRecord } from '../state/transactions.js';

/**
 * Records what a keyed create made when its answer is kept: its row's `creates` says what it makes and the field
 * of `data` naming it. Any other endpoint, or an answer other than a 201, made nothing and is ignored.
 */
export function recordKeyedEffect(
  state: MockState,
  request: { key: string; accountId: string; method: string; path: string },
  response: CachedResponse,
  operationId: OperationId,
): void {
  const create = CONTRACTS[operationId].creates;
  if (!create || response.status !== 201) return;
  const data = (response.body as { data?: Record<string, unknown> } | undefined)?.data;
  const id = data?.[create.field];
  if (typeof id !== 'string') return;
  state.http.ledger ??= [];
  state.http.ledger.push({
    accountId: request.accountId,
    idempotencyKey: request.key,
    method: request.method,
    path: request.path,
    kind: create.kind,
    id,
  });
}

/** What one logical create (one key, or one reference) produced. */
export interface LedgerRow {
  accountId: string;
  /**
   * The `Idempotency-Key` (rows of `byIdempotencyKey`), the `partnerReference` (rows of `byPartnerReference`) or
   * the user ID (rows of `unattributedByUser`).
   */
  key: string;
  users: number;
  transactions: number;
  payouts: number;
  /** The users and transactions produced, in creation order. */
  ids: string[];
  /**
   * More than one effect of a kind: the logical create took effect more than once (in `unattributedByUser`:
   * the user has more than one transaction nothing tells apart from a resend).
   */
  duplicate: boolean;
}

/** The exactly-once ledger (`GET /__mock/ledger`, `helpers.ledger()`). */
export interface Ledger {
  /** True when no logical create produced more than one effect. */
  ok: boolean;
  byIdempotencyKey: LedgerRow[];
  byPartnerReference: LedgerRow[];
  /**
   * Per user, the transactions created with neither an `Idempotency-Key` nor a `partnerReference`: no logical
   * create can be named for them, so more than one for a user is flagged, as the same create sent twice would be.
   */
  unattributedByUser: LedgerRow[];
  /** Every flagged row, of all three views. */
  duplicates: (LedgerRow & { by: 'idempotencyKey' | 'partnerReference' | 'unattributedByUser' })[];
  /** Everything that exists, and what of it no key or reference accounts for (seeded, or created without either). */
  totals: {
    users: number;
    transactions: number;
    payouts: number;
    transactionsWithoutReference: number;
    usersWithoutKey: number;
  };
}

type Effects = { users: string[]; transactions: string[] };

function row(accountId: string, key: string, effects: Effects, state: MockState): LedgerRow {
  const payouts = effects.transactions.filter((id) => state.transactions.byId[id]?.payout).length;
  const users = effects.users.length;
  const transactions = effects.transactions.length;
  return {
    accountId,
    key,
    users,
    transactions,
    payouts,
    ids: [...effects.users, ...effects.transactions],
    duplicate: users > 1 || transactions > 1 || payouts > 1,
  };
}

function group(state: MockState, pairs: [string, string, LedgerEntry['kind'], string][]): LedgerRow[] {
  const byKey = new Map<string, { accountId: string; key: string; effects: Effects }>();
  for (const [accountId, key, kind, id] of pairs) {
    const index = `${accountId}\u0000${key}`;
    const entry = byKey.get(index) ?? { accountId, key, effects: { users: [], transactions: [] } };
    (kind === 'user' ? entry.effects.users : entry.effects.transactions).push(id);
    byKey.set(index, entry);
  }
  return [...byKey.values()]
    .sort((a, b) => compare(a.accountId, b.accountId) || compare(a.key, b.key))
    .map((e) => row(e.accountId, e.key, e.effects, state));
}

// Code-unit order, not locale order: the ledger of one seed is the same bytes on every machine.
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Reads the ledger off the state. */
export function readLedger(state: MockState): Ledger {
  const entries = state.http.ledger ?? [];
  const byIdempotencyKey = group(
    state,
    entries.map((e) => [e.accountId, e.idempotencyKey, e.kind, e.id]),
  );
  const transactions = Object.values(state.transactions.byId);
  // Each transaction under the name `nameOf` gives it, or under none.
  const byTransaction = (nameOf: (t: TransactionRecord) => string | undefined) =>
    group(
      state,
      transactions.flatMap((t): [string, string, LedgerEntry['kind'], string][] => {
        const name = nameOf(t);
        return name === undefined ? [] : [[t.accountId, name, 'transaction', t.id]];
      }),
    );
  const byPartnerReference = byTransaction((t) => t.partnerReference);
  const keyed = new Set(entries.map((e) => e.id));
  // Only the create route makes transactions, so one with neither a key nor a reference came from such a create.
  const unattributedByUser = byTransaction((t) =>
    t.partnerReference === undefined && !keyed.has(t.id) ? t.userId : undefined,
  );
  const users = Object.keys(state.users.byId);
  const duplicates = [
    ...byIdempotencyKey.filter((r) => r.duplicate).map((r) => ({ ...r, by: 'idempotencyKey' as const })),
    ...byPartnerReference.filter((r) => r.duplicate).map((r) => ({ ...r, by: 'partnerReference' as const })),
    ...unattributedByUser
      .filter((r) => r.duplicate)
      .map((r) => ({ ...r, by: 'unattributedByUser' as const })),
  ];
  return {
    ok: duplicates.length === 0,
    byIdempotencyKey,
    byPartnerReference,
    unattributedByUser,
    duplicates,
    totals: {
      users: users.length,
      transactions: transactions.length,
      payouts: transactions.filter((t) => t.payout).length,
      transactionsWithoutReference: transactions.filter((t) => t.partnerReference === undefined).length,
      usersWithoutKey: users.filter((id) => !keyed.has(id)).length,
    },
  };
}
