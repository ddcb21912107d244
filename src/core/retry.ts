import { backoffDelay } from '../internal/backoff.js';
import { APIConnectionError, APIError } from './errors.js';

const NEVER_RETRIED = new Set([400, 401, 403, 404, 409, 422]);

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
 * How long to wait before retrying after `error`, or undefined when it must not be retried: 429 waits as the
 * service says (up to `maxRetryAfter`); connection failures, timeouts, 408 and 5xx back off exponentially with
 * jitter; 400, 401, 403, 404, 409 and 422 are final.
 *
 * @param retry - 0 for the first retry.
 * @param now - the client clock's time, against which `X-RateLimit-Reset` is read.
 */
export function retryDelay(
  error: Error,
  retry: number,
  maxRetryAfter: number,
  now = Date.now(),
): number | undefined {
  if (error instanceof APIConnectionError) return backoffDelay(retry);
  if (!(error instanceof APIError) || error.status === undefined) return undefined;
  if (NEVER_RETRIED.has(error.status)) return undefined;
  if (error.status === 429) {
    const wait = rateLimitWait(error, now) ?? backoffDelay(retry);
    return wait <= maxRetryAfter ? wait : undefined;
  }
  if (error.status === 408 || error.status >= 500) return backoffDelay(retry);
  return undefined;
}
