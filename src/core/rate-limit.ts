/**
 * The `X-RateLimit-*` figures of an answer. `reset` is a Unix time in seconds.
 *
 * @example
 * ```ts
 * import type { RateLimitInfo } from 'inr-payouts';
 * const { response } = await client.account.retrieve().withResponse();
 * const info: RateLimitInfo | undefined = response.rateLimit;
 * console.log(info?.limit, info?.remaining); // 600 599
 * ```
 */
export interface RateLimitInfo {
  limit?: number;
  remaining?: number;
  reset?: number;
}

function headerNumber(headers: Headers, name: string): number | undefined {
  const raw = headers.get(name);
  if (raw === null || raw.trim() === '') return undefined;
  const value = Number(raw);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * Reads the rate-limit headers of spec section 8; undefined when the answer has none.
 *
 * @example
 * Internal (not exported by the package), so this block is not run by the docs tests:
 * ```
 * const info = readRateLimit(new Headers({ 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '1767225600' }));
 * console.log(info); // { limit: 60, remaining: 0, reset: 1767225600 }
 * ```
 */
export function readRateLimit(headers: Headers): RateLimitInfo | undefined {
  const info: RateLimitInfo = {};
  for (const field of ['limit', 'remaining', 'reset'] as const) {
    const value = headerNumber(headers, `x-ratelimit-${field}`);
    if (value !== undefined) info[field] = value;
  }
  return Object.keys(info).length > 0 ? info : undefined;
}
