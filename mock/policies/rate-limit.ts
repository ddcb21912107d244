/**
 * Per-account API rate limit (spec 7.6, 8): a fixed one-minute window that opens on the first request after
 * the previous one closed, counted on the virtual clock. The three headers ride on every answer.
 */
import type { AccountRecord } from '../state/accounts.js';
import type { MockState } from '../state/mock-state.js';

const WINDOW_MS = 60_000;

/** The outcome of counting one request. */
export interface RateDecision {
  allowed: boolean;
  /** `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset` (Unix seconds). */
  headers: Record<string, string>;
  /** Seconds until the window resets (at least 1). */
  retryAfter: number;
}

function decide(limit: number, start: number, count: number, now: number, allowed: boolean): RateDecision {
  const resetMs = start + WINDOW_MS;
  return {
    allowed,
    headers: {
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': String(Math.max(0, limit - count)),
      'X-RateLimit-Reset': String(Math.ceil(resetMs / 1000)),
    },
    retryAfter: Math.max(1, Math.ceil((resetMs - now) / 1000)),
  };
}

/** Counts one request against the account's window; a refused request is not counted. */
export function consumeRate(state: MockState, account: AccountRecord, now: number): RateDecision {
  const limit = account.limits.rateLimit;
  let window = state.http.rateWindows[account.id];
  if (!window || now >= window.start + WINDOW_MS) {
    window = { start: now, count: 0 };
    state.http.rateWindows[account.id] = window;
  }
  if (window.count >= limit) return decide(limit, window.start, window.count, now, false);
  window.count += 1;
  return decide(limit, window.start, window.count, now, true);
}

/** The headers as they stand, without counting (for answers given before the count, such as 403). */
export function peekRate(state: MockState, account: AccountRecord, now: number): Record<string, string> {
  const window = state.http.rateWindows[account.id];
  const open = window && now < window.start + WINDOW_MS;
  return decide(account.limits.rateLimit, open ? window.start : now, open ? window.count : 0, now, true)
    .headers;
}

/** The 429 body of spec 7.6. */
export function rateLimitBody(retryAfter: number): { error: string; message: string; retryAfter: number } {
  return {
    error: 'Rate Limit Exceeded',
    message: `Too many requests for this account; retry after ${retryAfter} seconds`,
    retryAfter,
  };
}
