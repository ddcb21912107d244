/**
 * The wire forms of spec 1 and 7.1: the success envelope and the two error shapes. Bodies go through
 * `JSON.stringify`, so a field left `undefined` is omitted, which is the spec's convention (spec 1.3);
 * the few fields the spec sends as explicit null are set to `null` by their resolvers.
 */
import { type ApiErrorBody, codeFromError, type ErrorShape } from './errors.js';
import type { Explanation } from './explain.js';

/** What a resolver returns on success. */
export interface MockResult<T = unknown> {
  /** Default: the endpoint row's success status (200 unless the row says 201). */
  status?: number;
  data: T;
  message?: string;
  /** Top-level fields beside `data`, for example the webhook list's `pagination`. */
  extra?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Which sandbox value or helper chose this answer: the pipeline sends it as `X-Mock-Explain`. */
  explain?: Explanation;
}

/** `{ success: true, data, message? }` plus `extra`. */
export function successBody(result: MockResult): Record<string, unknown> {
  return { success: true, data: result.data, message: result.message, ...result.extra };
}

/** An error body in `shape`. */
export function errorBody(shape: ErrorShape, body: ApiErrorBody): Record<string, unknown> {
  const { error, message, code, ...extra } = body;
  if (shape === 'B') return { success: false, error, message, ...extra };
  return { error, message, code: code ?? codeFromError(error), ...extra };
}

/**
 * Whether `response` is a network error (`Response.error()`, a dropped connection): the one response whose status
 * is 0. Read from the status rather than `type`, which a server adapter's light response makes whole to answer.
 */
export function isNetworkError(response: Response): boolean {
  return response.status === 0;
}

/** A JSON response; `headers` may use any capitalisation, and `content-type` defaults to JSON. */
export function json(status: number, body: unknown, headers?: Record<string, string>): Response {
  const all: Record<string, string> = { 'content-type': 'application/json' };
  for (const name in headers) all[name.toLowerCase()] = headers[name] ?? '';
  // JSON.stringify drops undefined fields exactly as the wire will.
  return new Response(JSON.stringify(body), { status, headers: all });
}

/**
 * The answer to a `HEAD`: no body, and the length its `GET` would have had (`text`, when the body's text is
 * known, spares reading it).
 */
export async function withoutBody(response: Response, text?: string): Promise<Response> {
  if (response.type === 'error' || response.body === null) return response;
  const length = text === undefined ? (await response.arrayBuffer()).byteLength : byteLength(text);
  const headers = new Headers(response.headers);
  headers.set('content-length', String(length));
  return new Response(null, { status: response.status, statusText: response.statusText, headers });
}

const encoder = new TextEncoder();

/** The UTF-8 length of `text`. */
function byteLength(text: string): number {
  return encoder.encode(text).byteLength;
}

/** The body of an unexpected failure, in the route's shape; the service stays usable after it. */
export function internalErrorBody(shape: ErrorShape, detail: string): Record<string, unknown> {
  return errorBody(shape, {
    error: 'Internal Server Error',
    message: `The mock failed while handling this request: ${detail}`,
    code: 'INTERNAL_ERROR',
  });
}
