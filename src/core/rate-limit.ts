/** The `X-RateLimit-*` figures of an answer. `reset` is a Unix time in seconds. */
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

/** Reads the rate-limit headers of spec section 8; undefined when the answer has none. */
export function readRateLimit(headers: Headers): RateLimitInfo | undefined {
  const info: RateLimitInfo = {};
  for (const field of ['limit', 'remaining', 'reset'] as const) {
    const value = headerNumber(headers, `x-ratelimit-${field}`);
    if (value !== undefined) info[field] = value;
  }
  return Object.keys(info).length > 0 ? info : undefined;
}
