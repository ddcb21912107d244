/**
 * How a run reaches the target through a failure that is not the target's answer: each attempt has a time-out,
 * and a transient failure (a time-out, a network error, 408, 429, 5xx) is retried as the package's client
 * retries it (its own back-off and rate-limit wait, a POST only with an `Idempotency-Key`). What stays
 * unavailable is {@link TargetUnavailable}, naming the request: the run says it could not compare, never that
 * the target differs.
 */
import { APIError } from '../../src/core/errors.js';
import { retryWait } from '../../src/core/retry.js';

/** How hard a run tries each request. */
export interface AttemptPolicy {
  /** Milliseconds one attempt may take before it is abandoned as a time-out. */
  timeoutMs: number;
  /** Retries after the first attempt (the client's default, 2). */
  retries: number;
  /** Longest wait a 429 may ask for before the request is given up (the client's default, 60 s). */
  maxRetryAfterMs: number;
  /** Scales the back-off between retries of a time-out, network error or 5xx (1: the client's 0.5 s to 8 s). */
  backoff: number;
  /** Each retry and each long wait, as it happens. */
  progress: (line: string) => void;
}

/** The client's own: `maxRetries` 2, `maxRetryAfter` 60 s; a 30 s attempt. */
export const DEFAULT_ATTEMPTS: AttemptPolicy = {
  timeoutMs: 30_000,
  retries: 2,
  maxRetryAfterMs: 60_000,
  backoff: 1,
  progress: () => {},
};

/**
 * The target could not be asked: a request that kept failing (time-outs, network errors, 5xx, 429) after its
 * retries, or one that could not be retried. Never a difference: the run reports the request as unavailable.
 * @example
 * ```ts
 * import { TargetUnavailable } from 'inr-payouts/mock';
 * new TargetUnavailable('GET /v2/account', 'answered 503 on 3 attempts').message;
 * // 'target unavailable: GET /v2/account answered 503 on 3 attempts'
 * ```
 */
export class TargetUnavailable extends Error {
  override readonly name = 'TargetUnavailable';
  constructor(
    /** `METHOD path` of the request. */
    readonly request: string,
    /** What happened to it. */
    readonly what: string,
  ) {
    super(`target unavailable: ${request} ${what}`);
  }
}

/** What one attempt ended with when it was not an answer. */
type Failure = { kind: 'timeout' } | { kind: 'network'; message: string };

const RETRIED_STATUSES = (status: number) => status === 408 || status === 429 || status >= 500;

/** The client retries a POST or PATCH only when it carries an idempotency key (the retry cannot act twice). */
function retriable(request: Request): boolean {
  if (request.method !== 'POST' && request.method !== 'PATCH') return true;
  return request.headers.has('idempotency-key');
}

function describeFailure(failure: Failure, timeoutMs: number): string {
  return failure.kind === 'timeout'
    ? `gave no answer in ${timeoutMs / 1000} s`
    : `failed (${failure.message})`;
}

/** How often a long wait for one answer says it is still waiting. */
const STILL_WAITING_MS = 10_000;

async function attempt(
  send: typeof fetch,
  request: Request,
  label: string,
  policy: AttemptPolicy,
): Promise<Response | Failure> {
  const timeout = AbortSignal.timeout(policy.timeoutMs);
  const started = Date.now();
  const waiting = setInterval(
    () => policy.progress(`  still waiting for ${label} (${Math.round((Date.now() - started) / 1000)} s)`),
    STILL_WAITING_MS,
  );
  waiting.unref?.();
  try {
    const response = await send(request.clone(), { signal: AbortSignal.any([request.signal, timeout]) });
    // The body is read here, under the same time-out: a target that answers its head and stalls is stalled.
    const body = await response.arrayBuffer();
    return new Response(body.byteLength === 0 ? null : body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  } catch (error) {
    if (request.signal.aborted) throw error;
    if (timeout.aborted) return { kind: 'timeout' };
    return { kind: 'network', message: causeOf(error) };
  } finally {
    clearInterval(waiting);
  }
}

/** fetch's `TypeError: fetch failed` hides the reason (`ECONNREFUSED`...) in its cause. */
function causeOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}

/** Milliseconds before the next attempt, by the client's rules. */
async function waitFor(
  last: Response | Failure,
  retry: number,
  label: string,
  policy: AttemptPolicy,
): Promise<number> {
  if (last instanceof Response && last.status === 429) {
    const body: unknown = await last
      .clone()
      .json()
      .catch(() => undefined);
    const error = APIError.from({ status: 429, body, headers: last.headers, endpoint: label });
    return retryWait(error, retry, Date.now());
  }
  return retryWait(new Error(label), retry, Date.now()) * policy.backoff;
}

/** The options of one {@link sendWithRetries} call. */
export interface SendOptions {
  /** `METHOD path`, for progress and for the error. */
  label: string;
  /** A 429 that is the point of the request (a rate or OTP limit being checked): answered, not retried. */
  limitExpected?: boolean;
  /** Fail at the first time-out or network error (the first contact with a target: nothing there to wait for). */
  once?: boolean;
}

/**
 * Sends `request`, retrying a transient failure as the client would; resolves the answer (a 5xx or 429 only when
 * it is the point), rejects {@link TargetUnavailable} when the target stays unavailable.
 */
export async function sendWithRetries(
  send: typeof fetch,
  request: Request,
  policy: AttemptPolicy,
  options: SendOptions,
): Promise<Response> {
  const { label } = options;
  const canRetry = retriable(request);
  for (let retry = 0; ; retry++) {
    const last = await attempt(send, request, label, policy);
    if (last instanceof Response && !RETRIED_STATUSES(last.status)) return last;
    if (last instanceof Response && last.status === 429 && options.limitExpected) return last;
    const what =
      last instanceof Response ? `answered ${last.status}` : describeFailure(last, policy.timeoutMs);
    if (options.once && !(last instanceof Response)) throw new TargetUnavailable(label, what);
    if (!canRetry) {
      throw new TargetUnavailable(
        label,
        `${what}, and a ${request.method} without an Idempotency-Key is not retried (it may have taken effect)`,
      );
    }
    if (retry >= policy.retries) {
      throw new TargetUnavailable(label, `${what} on each of ${retry + 1} attempts`);
    }
    const wait = await waitFor(last, retry, label, policy);
    if (wait > policy.maxRetryAfterMs) {
      throw new TargetUnavailable(
        label,
        `${what} and asked for a wait of ${Math.round(wait / 1000)} s, beyond the ${policy.maxRetryAfterMs / 1000} s allowed`,
      );
    }
    policy.progress(
      `  ${label} ${what}: retry ${retry + 1} of ${policy.retries} in ${(wait / 1000).toFixed(1)} s`,
    );
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
