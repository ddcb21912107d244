/**
 * What the shared request pipeline remembers: idempotency records, rate-limit windows and injected faults.
 */

import type { ChaosRecord } from './chaos.js';
import type { LedgerEntry } from './ledger.js';
import { keyed } from './records.js';

/** A response kept for an idempotent replay. */
export interface CachedResponse {
  status: number;
  body: unknown;
}

/** An idempotency key in use (spec 8, "Idempotency"): scoped by account, method and path; lives 24 hours. */
export interface IdempotencyRecord {
  key: string;
  accountId: string;
  method: string;
  path: string;
  /** Canonical JSON of the request body; another body under the same key is a conflict. */
  fingerprint: string;
  response: CachedResponse;
  createdAt: string;
  /** Epoch ms on the virtual clock. */
  expiresAt: number;
}

/** A fixed one-minute rate-limit window of one account. */
export interface RateWindow {
  /** Epoch ms the window opened (the first request after the previous window closed). */
  start: number;
  count: number;
}

/**
 * The kinds of injected fault: `latency` delays the answer (wall time), `error` answers a 5xx without
 * running the handler, `drop` is a network error without running it, `drop-after-commit` runs the handler
 * and commits, then answers a network error.
 */
export type FaultKind = 'latency' | 'error' | 'drop' | 'drop-after-commit';

/** An injected fault waiting for matching requests. */
export interface FaultRecord {
  id: string;
  kind: FaultKind;
  /** Method (any when absent) and path: a route pattern (`/v2/users/:userId/...`) or a concrete path. */
  match: { method?: string; path?: string };
  ms?: number;
  status?: number;
  /** Matching requests it still applies to. */
  remaining: number;
}

/** The pipeline collection. */
export interface HttpSlice {
  /** `${accountId} ${method} ${path} ${key}` → record. */
  idempotency: Record<string, IdempotencyRecord>;
  rateWindows: Record<string, RateWindow>;
  faults: FaultRecord[];
  faultSeq: number;
  /** Seeded chaos in force (`mock/policies/chaos.ts`); absent when off. */
  chaos?: ChaosRecord;
  /** What each keyed create produced (`mock/observe/ledger.ts`); absent until the first one. */
  ledger?: LedgerEntry[];
}

export function emptyHttp(): HttpSlice {
  return { idempotency: keyed(), rateWindows: keyed(), faults: [], faultSeq: 0 };
}
