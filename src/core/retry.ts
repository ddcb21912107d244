import { APIError } from './errors.js';

/** Milliseconds until the service's rate-limit window allows another request, from the 429 answer. */
function rateLimitWait(error: APIError, now: number): number | undefined {
  if (error.retryAfter !== undefined) return Math.max(0, error.retryAfter * 1000);
  const reset = Number(error.headers.get('x-ratelimit-reset'));
  if (Number.isFinite(reset) && reset > 0) return Math.max(0, reset * 1000 - now);
  const retryAfter = Number(error.headers.get('retry-after'));
  if (Number.isFinite(retryAfter) && retryAfter >= 0) return retryAfter * 1000;
  return undefined;
}

/**
 * A 429 waits as the service says (`retryAfter`, then `X-RateLimit-Reset`, then `Retry-After`); the rest back off
 * from 0.5 s to 8 s with equal jitter (half fixed, half random), so many clients' retries spread out.
 * @param retry - 0 for the first retry.
 */
export function retryWait(failure: Error, retry: number, now: number): number {
  const rateLimited = failure instanceof APIError && failure.status === 429;
  const wait = rateLimited ? rateLimitWait(failure, now) : undefined;
  if (wait !== undefined) return wait;
  const step = Math.min(8_000, 500 * 2 ** retry);
  return step / 2 + (Math.random() * step) / 2;
}
