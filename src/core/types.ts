import type { RateLimitInfo } from './rate-limit.js';

/** HTTP methods the partner interface uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Per-call options, accepted as the last argument of every method. */
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
   * Of a mutating call; default a fresh UUID per logical call, reused by its retries. Your own (a UUID, spec 8)
   * makes a call safe to repeat across processes; `false` sends none, and the call is then never retried.
   */
  idempotencyKey?: string | false;
  /** An `Idempotency-Key` given here is used as is (it must be a UUID too). */
  headers?: Record<string, string>;
  /** Over the client's `fetchOptions`. */
  fetchOptions?: FetchOptions;
}

/** What the raw answer said, for callers who need more than `data`. */
export interface ResponseInfo {
  status: number;
  headers: Headers;
  idempotencyKey?: string;
  /** The service answered with its stored result for a repeated idempotency key. */
  idempotentReplayed: boolean;
  rateLimit?: RateLimitInfo;
  /** Attempts made, 1 when the first one succeeded. */
  attempts: number;
}

/** How much the client logs: `off`, or the lowest level of line it sends to the logger. */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/** Passed to every `fetch` beside what the client sets itself (undici's `dispatcher` for a proxy, say). */
export type FetchOptions = Omit<RequestInit, 'method' | 'headers' | 'body' | 'signal'> &
  Record<string, unknown>;

/** Receives the client's log lines. Messages never contain the API key. */
export interface Logger {
  debug?(message: string, details?: Record<string, unknown>): void;
  info?(message: string, details?: Record<string, unknown>): void;
  warn?(message: string, details?: Record<string, unknown>): void;
  error?(message: string, details?: Record<string, unknown>): void;
}
