/**
 * Idempotency (spec 7.5, 8): a key is scoped to account, method and the endpoint the router resolved
 * (pattern plus decoded parameters, see `endpointScope`) and lives 24 hours on the clock.
 * Only successful (2xx) answers are kept: a replay answers 200, which only makes sense for a success, and
 * an error took no action, so running the request again is safe.
 */

import type { OperationId } from '../../src/endpoints/index.js';
import type { ParsedBody } from '../engine/exchange.js';
import { defineTask } from '../engine/tasks.js';
import { nowIso, schedule } from '../engine/timers.js';
import { recordKeyedEffect } from '../observe/ledger.js';
import type { CachedResponse, IdempotencyRecord } from '../state/http.js';
import type { MockState } from '../state/mock-state.js';

/** How long a key is remembered (spec 8). @example IDEMPOTENCY_TTL_MS // 86400000 */
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** The 409 body of spec 7.5, on every endpoint. */
export const IDEMPOTENCY_CONFLICT_BODY = {
  error: 'Idempotency Conflict',
  message: 'This Idempotency-Key was already used with a different request body; no action was taken',
  code: 'IDEMPOTENCY_CONFLICT',
} as const;

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([k, v]) => [k, canonical(v)]));
  }
  return value;
}

/**
 * What "the same body" means: equal JSON whatever the key order or spacing; other text compared as is. `parsed`
 * is the body as the request's context parsed it once.
 */
export function fingerprint(text: string, parsed: ParsedBody): string {
  return parsed === undefined || parsed.value === undefined ? text : JSON.stringify(canonical(parsed.value));
}

/** The record id of a key. */
export function idempotencyId(accountId: string, method: string, path: string, key: string): string {
  return `${accountId} ${method} ${path} ${key}`;
}

/** The live record of a key (an expired one counts as absent even before its timer purged it). */
export function findIdempotency(state: MockState, id: string): IdempotencyRecord | undefined {
  const record = state.http.idempotency[id];
  return record && record.expiresAt > state.clock.now ? record : undefined;
}

/** Purges a key when its 24 hours are up. */
export const idempotencyExpire = defineTask<{ id: string }>(
  'idempotency.expire',
  ({ id }, { state, now }) => {
    const record = state.http.idempotency[id];
    if (record && record.expiresAt <= now) delete state.http.idempotency[id];
  },
);

/**
 * Remembers a successful answer under a key and schedules its expiry. `operationId` names the endpoint's row for
 * the ledger, since the record's path is the concrete one (none for the catch-all).
 */
export function storeIdempotency(
  state: MockState,
  id: string,
  request: Pick<IdempotencyRecord, 'key' | 'accountId' | 'method' | 'path' | 'fingerprint'>,
  response: CachedResponse,
  operationId: OperationId | undefined,
): void {
  const expiresAt = state.clock.now + IDEMPOTENCY_TTL_MS;
  state.http.idempotency[id] = { ...request, response, createdAt: nowIso(state), expiresAt };
  if (operationId) recordKeyedEffect(state, request, response, operationId);
  schedule(state, idempotencyExpire, { at: expiresAt }, { id });
}
