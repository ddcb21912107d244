import { PayoutError } from '../shared/payout-error.js';
import { isPlainObject } from '../shared/plain-object.js';
import { redactDeep, redactHeaders } from '../shared/redact.js';

export { PayoutError };

import { type RateLimitInfo, readRateLimit } from './rate-limit.js';

/**
 * The configuration cannot work (no key, a live key with the sandbox, a browser): thrown by the constructor.
 * @example
 * ```ts
 * import { ConfigurationError, PayoutClient } from 'inr-payouts';
 * try {
 *   new PayoutClient({ apiKey: 'pk_live_abc', environment: 'sandbox', baseUrl: 'https://api.test' });
 * } catch (err) {
 *   console.log(err instanceof ConfigurationError); // true
 * }
 * ```
 */
export class ConfigurationError extends PayoutError {
  override name = 'ConfigurationError';
}

/** One problem with one field of a request. */
export interface ValidationIssue {
  /** Dotted path of the field, e.g. `amount` or `allocations.0.rate`; empty for the whole value. */
  path: string;
  message: string;
}

function describeIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
}

/**
 * A request broke a field rule of the partner interface; nothing was sent, and `issues` names each bad field.
 * @example
 * ```ts
 * import { ValidationError } from 'inr-payouts';
 * const err = new ValidationError('transactions.create', [{ path: 'amount', message: 'must be at least 10 USD' }]);
 * console.log(err.message); // 'Invalid request for transactions.create: amount: must be at least 10 USD. Nothing was sent.'
 * ```
 */
export class ValidationError extends PayoutError {
  override name = 'ValidationError';
  readonly issues: readonly ValidationIssue[];
  readonly operation: string;
  constructor(operation: string, issues: readonly ValidationIssue[]) {
    super(`Invalid request for ${operation}: ${describeIssues(issues)}. Nothing was sent.`);
    this.operation = operation;
    this.issues = issues;
  }
}

/**
 * The service's answer does not have the documented shape: `issues` names the paths, `body` keeps what came.
 * @example
 * ```ts
 * import { ResponseValidationError } from 'inr-payouts';
 * const err = new ResponseValidationError('GET /v2/account', 200, [{ path: 'data.id', message: 'expected string' }], {});
 * console.log(err.status); // 200
 * ```
 */
export class ResponseValidationError extends PayoutError {
  override name = 'ResponseValidationError';
  readonly issues: readonly ValidationIssue[];
  readonly status: number;
  readonly body: unknown;
  constructor(endpoint: string, status: number, issues: readonly ValidationIssue[], body: unknown) {
    super(
      `Unexpected response shape from ${endpoint} (status ${status}): ${describeIssues(issues)}. ` +
        'client.request() reads the raw body until the SDK catches up.',
    );
    this.issues = issues;
    this.status = status;
    this.body = redactDeep(body);
  }
}

/**
 * One spelling of an error identifier, which the spec writes as a code (`NAME_MISMATCH`) or in words.
 * @example
 * ```ts
 * import { normalizeErrorCode } from 'inr-payouts';
 * console.log(normalizeErrorCode('Name Mismatch'), normalizeErrorCode('No OTP Found')); // NAME_MISMATCH NO_OTP_FOUND
 * ```
 */
export function normalizeErrorCode(identifier: string): string {
  return identifier
    .trim()
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
}

// Spec 7.4 words the bank's penny-drop failure `Verification Failed`; 7.3's `BANK_VERIFICATION_FAILED` wins.
function specCode(endpoint: string, code: string): string {
  return code === 'VERIFICATION_FAILED' && endpoint.endsWith('/kyc/bank/verify')
    ? 'BANK_VERIFICATION_FAILED'
    : code;
}

type Json = Record<string, unknown>;

const asRecord = (value: unknown): Json | undefined => (isPlainObject(value) ? value : undefined);
const asNumber = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);
const asString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** What the transport knows about an error answer. */
export interface APIErrorInit {
  /** Undefined when no answer came (connection, time-out, abort). */
  status: number | undefined;
  body: unknown;
  headers: Headers;
  endpoint: string;
  idempotencyKey?: string | undefined;
}

/**
 * The service answered with an error. Both body shapes of the spec (A and B) read into the same fields, and
 * `success: false` is an error even on a 2xx. Each status has its subclass; `code` tells its failures apart.
 * @example
 * ```ts
 * import { APIError, NotFoundError, RateLimitError } from 'inr-payouts';
 * try {
 *   await client.transactions.retrieve('order-unknown');
 * } catch (err) {
 *   if (err instanceof NotFoundError) console.log('no such transaction', err.code);
 *   else if (err instanceof RateLimitError) console.log('retry in', err.retryAfter);
 *   else if (err instanceof APIError) console.log(err.status, err.code, err.message);
 *   else throw err;
 * }
 * ```
 */
export class APIError extends PayoutError {
  override name = 'APIError';
  /** `undefined` when no answer came ({@link APIConnectionError} and its kin), as in openai-node. */
  readonly status: number | undefined;
  /** Machine-readable identifier in one spelling (see {@link normalizeErrorCode}), e.g. `KYC_INCOMPLETE`. */
  readonly code: string;
  /** The service's short category, e.g. `Bad Request`, `Conflict`, `Name Mismatch`. */
  readonly error: string;
  /** With any API key in them masked. */
  readonly headers: Headers;
  /** OTP errors: attempts left for this OTP. */
  readonly attemptsRemaining?: number;
  /** Name-mismatch errors: the similarity score the service computed. */
  readonly matchScore?: number;
  /** 429: seconds to wait, as the service said. */
  readonly retryAfter?: number;
  /** The body's `data`, when the error carried one (shape B). */
  readonly data?: unknown;
  /** As received, with any API key in it masked. */
  readonly body: unknown;
  /** `METHOD path` of the failed call. */
  readonly endpoint: string;
  /** The idempotency key the call carried, so a caller can retry the same logical call. */
  readonly idempotencyKey?: string;

  constructor(init: APIErrorInit, message: string, options?: { cause?: unknown }) {
    super(message, options);
    const body = asRecord(init.body) ?? {};
    const data = asRecord(body.data);
    this.status = init.status;
    const status = init.status ?? 'none';
    this.error = asString(body.error) ?? `HTTP ${status}`;
    this.code = specCode(
      init.endpoint,
      normalizeErrorCode(asString(body.code) ?? asString(body.error) ?? `HTTP_${status}`),
    );
    this.headers = redactHeaders(init.headers);
    this.endpoint = init.endpoint;
    this.body = redactDeep(init.body);
    // Class fields, so each is the instance's own property whether the answer had it or not.
    this.idempotencyKey = init.idempotencyKey;
    this.attemptsRemaining = asNumber(body.attemptsRemaining) ?? asNumber(data?.attemptsRemaining);
    this.matchScore = asNumber(body.matchScore) ?? asNumber(data?.matchScore);
    this.retryAfter = asNumber(body.retryAfter);
    this.data = redactDeep(body.data);
  }

  /** Builds the subclass that fits the status. */
  static from(init: APIErrorInit): APIError {
    const body = asRecord(init.body);
    const detail = asString(body?.message) ?? asString(body?.error) ?? 'no error message in the response';
    const message = `${init.endpoint} failed with ${init.status}: ${detail}`;
    const Class = errorClassFor(init.status ?? 0);
    return new Class(init, message);
  }

  /** For logs and `JSON.stringify`, without the request's credentials. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      status: this.status,
      code: this.code,
      error: this.error,
      endpoint: this.endpoint,
      attemptsRemaining: this.attemptsRemaining,
      matchScore: this.matchScore,
      retryAfter: this.retryAfter,
      data: this.data,
    };
  }
}

/** 400: invalid parameters, a wrong OTP, an out-of-range developer fee. Not retried. */
export class BadRequestError extends APIError {
  override name = 'BadRequestError';
  declare readonly status: number;
}
/** 401: missing or invalid API key. Check the key and its environment. Not retried. */
export class AuthenticationError extends APIError {
  override name = 'AuthenticationError';
  declare readonly status: number;
}
/** 403: the caller's address is not on the account's IP allow-list, or the action is off. Not retried. */
export class PermissionDeniedError extends APIError {
  override name = 'PermissionDeniedError';
  declare readonly status: number;
}
/** 404: the user, transaction, session or event does not exist. Not retried. */
export class NotFoundError extends APIError {
  override name = 'NotFoundError';
  declare readonly status: number;
}
/** 409: already exists, or an idempotency key reused with a different body. Not retried. */
export class ConflictError extends APIError {
  override name = 'ConflictError';
  declare readonly status: number;
}
/** 422: well formed, but a rule refused it (KYC incomplete, name mismatch...). Not retried. */
export class UnprocessableEntityError extends APIError {
  override name = 'UnprocessableEntityError';
  declare readonly status: number;
}
/** 429: rate limited, after the client waited and retried as the service asked; `retryAfter` in seconds. */
export class RateLimitError extends APIError {
  override name = 'RateLimitError';
  declare readonly status: number;
  readonly rateLimit?: RateLimitInfo;
  constructor(init: APIErrorInit, message: string) {
    super(init, message);
    this.rateLimit = readRateLimit(init.headers);
  }
}
/** 5xx: the service failed. Retried with backoff (POST only with an idempotency key). */
export class InternalServerError extends APIError {
  override name = 'InternalServerError';
  declare readonly status: number;
}

// A table rather than a switch: fewer bytes in the client bundle.
const classByStatus: Record<number, new (init: APIErrorInit, message: string) => APIError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

function errorClassFor(status: number): new (init: APIErrorInit, message: string) => APIError {
  return classByStatus[status] ?? (status >= 500 ? InternalServerError : APIError);
}

function noAnswer(endpoint: string, idempotencyKey: string | undefined, error: string): APIErrorInit {
  return { status: undefined, body: { error }, headers: new Headers(), endpoint, idempotencyKey };
}

/** No answer (DNS, refused or dropped connection), after retries when safe; `code` is `CONNECTION_ERROR`. */
export class APIConnectionError extends APIError {
  override name = 'APIConnectionError';
  declare readonly status: undefined;
  constructor(
    endpoint: string,
    options?: { cause?: unknown; idempotencyKey?: string | undefined; message?: string; error?: string },
  ) {
    super(
      noAnswer(endpoint, options?.idempotencyKey, options?.error ?? 'Connection Error'),
      options?.message ??
        `${endpoint} got no answer (connection failed or dropped). Check the base URL and the network; ` +
          'a mutating call is safe to retry with the same idempotency key.',
      { cause: options?.cause },
    );
  }
}

/** An attempt ran past its `timeout`, or the call past its `deadline`; `code` is `TIMEOUT`. */
export class APITimeoutError extends APIConnectionError {
  override name = 'APITimeoutError';
  constructor(
    endpoint: string,
    ms: number,
    options?: { idempotencyKey?: string | undefined; deadline?: boolean },
  ) {
    super(endpoint, {
      idempotencyKey: options?.idempotencyKey,
      error: 'Timeout',
      message: options?.deadline
        ? `${endpoint} passed its ${ms} ms deadline. Raise \`deadline\`, or look the result up (a transaction by ` +
          'its partnerReference) before sending again.'
        : `${endpoint} timed out after ${ms} ms. Raise \`timeout\` if the service is slow.`,
    });
  }
}

/** openai-node's name for {@link APITimeoutError}: the same class, so a ported `instanceof` check works. */
export const APIConnectionTimeoutError = APITimeoutError;
/** openai-node's name for {@link APITimeoutError}. */
export type APIConnectionTimeoutError = APITimeoutError;

/** The caller's `AbortSignal` fired; `cause` holds its reason and `code` is `ABORTED`. */
export class APIUserAbortError extends APIError {
  override name = 'APIUserAbortError';
  declare readonly status: undefined;
  constructor(endpoint: string, options?: { cause?: unknown }) {
    super(noAnswer(endpoint, undefined, 'Aborted'), `${endpoint} was aborted by the caller.`, options);
  }
}
