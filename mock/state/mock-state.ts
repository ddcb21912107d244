/**
 * The whole simulation as one plain JSON-serialisable object: snapshot is `structuredClone`, the standalone
 * server's persistence is `JSON.stringify`. Each domain owns a slice in `mock/state/*.ts`; a domain adds a
 * collection inside its own slice without touching this file.
 */
import type { AccountsSlice } from './accounts.js';
import type { HttpSlice } from './http.js';
import type { KycSlice } from './kyc.js';
import type { Timer } from './timers.js';
import type { TransactionsSlice } from './transactions.js';
import type { UsersSlice } from './users.js';
import type { VerificationSlice } from './verification.js';
import type { WebhooksSlice } from './webhooks.js';

/** The complete state of one mock service. */
export interface MockState {
  /** Bumped when the layout changes, so a stale state file is refused rather than misread. */
  version: 1;
  seed: string;
  /** The seeded PRNG's state; restoring it continues the same ID sequence. */
  rng: number;
  clock: { now: number; timerSeq: number };
  /** Pending timers, sorted by `at`, then by scheduling order. */
  timers: Timer[];
  accounts: AccountsSlice;
  users: UsersSlice;
  verification: VerificationSlice;
  kyc: KycSlice;
  transactions: TransactionsSlice;
  webhooks: WebhooksSlice;
  http: HttpSlice;
}

/** A read-only view of a value, for `service.state`. */
export type DeepReadonly<T> = T extends (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;
