import type { RateLimitInfo } from './rate-limit.js';

/**
 * HTTP methods the partner interface uses.
 *
 * @example
 * ```ts
 * import type { HttpMethod } from 'inr-payouts';
 * const method: HttpMethod = 'GET';
 * const credit = await client.request({ method, path: '/v2/account/credit' });
 * ```
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Per-call options, accepted as the last argument of every method.
 *
 * @example
 * ```ts
 * import type { RequestOptions } from 'inr-payouts';
 * const options: RequestOptions = { timeout: 5_000, maxRetries: 4, signal: AbortSignal.timeout(60_000) };
 * ```
 */
export interface RequestOptions {
  /** Aborts the call, including any retry wait in progress. */
  signal?: AbortSignal;
  /** Milliseconds one attempt may take before it is abandoned (and retried when safe). */
  timeout?: number;
  /** Milliseconds the whole call may take, retries and waits included. */
  deadline?: number;
  /** Retries after the first attempt. */
  maxRetries?: number;
  /**
   * The `Idempotency-Key` of a mutating call. Defaults to a fresh UUID per logical call, reused on every retry of
   * it. Pass your own (a UUID, spec section 8: anything else is refused with `ValidationError` before sending) to
   * make a call safe to repeat across processes; pass `false` to send none (the call is then never retried).
   */
  idempotencyKey?: string | false;
  /** Extra headers. An `Idempotency-Key` given here is used as is (it must be a UUID too). */
  headers?: Record<string, string>;
  /** Options for this call's `fetch`, over the client's `fetchOptions`. */
  fetchOptions?: FetchOptions;
}

/**
 * What the raw answer said, for callers who need more than `data`.
 *
 * @example
 * ```ts
 * import type { ResponseInfo } from 'inr-payouts';
 * const show = (info: ResponseInfo) => `${info.status} replayed=${info.idempotentReplayed} left=${info.rateLimit?.remaining}`;
 * ```
 */
export interface ResponseInfo {
  status: number;
  headers: Headers;
  /** The `Idempotency-Key` the call carried, if any. */
  idempotencyKey?: string;
  /** True when the service answered with a stored result for a repeated idempotency key. */
  idempotentReplayed: boolean;
  rateLimit?: RateLimitInfo;
  /** Attempts made, 1 when the first one succeeded. */
  attempts: number;
}

/**
 * How much the client logs: `off`, or the lowest level of line it sends to the logger.
 *
 * @example
 * ```ts
 * import type { LogLevel } from 'inr-payouts';
 * const level: LogLevel = process.env.CI ? 'warn' : 'debug';
 * ```
 */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/**
 * Options passed to every `fetch` of the client, beside the method, headers, body and signal it sets itself
 * (for example undici's `dispatcher` for a proxy).
 *
 * @example
 * ```ts
 * import type { FetchOptions } from 'inr-payouts';
 * const fetchOptions: FetchOptions = { keepalive: true, referrerPolicy: 'no-referrer' };
 * ```
 */
export type FetchOptions = Omit<RequestInit, 'method' | 'headers' | 'body' | 'signal'> &
  Record<string, unknown>;

/**
 * Receives the client's log lines. Messages never contain the API key.
 *
 * @example
 * ```ts
 * import type { Logger } from 'inr-payouts';
 * const logger: Logger = { debug: (m) => console.debug(m), warn: (m) => console.warn(m) };
 * ```
 */
export interface Logger {
  debug?(message: string, details?: Record<string, unknown>): void;
  info?(message: string, details?: Record<string, unknown>): void;
  warn?(message: string, details?: Record<string, unknown>): void;
  error?(message: string, details?: Record<string, unknown>): void;
}
