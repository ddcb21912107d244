// The steps the sync and async verifiers share: everything but the HMAC. Runtime-neutral (no Buffer, no node:).

import { WebhookVerificationError } from './errors.js';
import type { WebhookEvent } from './events.js';

/**
 * The raw request body, exactly as received: a string, or the bytes (a Buffer is a Uint8Array; an ArrayBuffer is
 * what `await request.arrayBuffer()` gives).
 */
export type WebhookBody = string | Uint8Array | ArrayBuffer;

/**
 * The webhook signing secret, or several while rotating it (a message signed with any one of them is accepted).
 */
export type WebhookSecret = string | readonly string[];

/**
 * The `X-Service-Signature` header value as frameworks hand it over: `headers.get()` gives `string | null`,
 * node:http's `req.headers[...]` gives `string | string[] | undefined`.
 */
export type SignatureHeader = string | readonly string[] | null | undefined;

/**
 * Options of `verifyWebhook` and `verifyWebhookAsync`.
 *
 * @example
 * ```ts
 * import type { VerifyWebhookOptions } from 'inr-payouts/webhooks';
 *
 * const options: VerifyWebhookOptions = { toleranceSeconds: 60, now: new Date() };
 * ```
 */
export interface VerifyWebhookOptions {
  /** Largest accepted distance between the header's `t` and now, in seconds, either direction. Default 300 (spec 6.3.4). */
  toleranceSeconds?: number;
  /** The current time: a Date, or milliseconds since the epoch as `Date.now()` returns. Default: the system clock. */
  now?: Date | number;
}

/**
 * The name of the header carrying the signature, lower-case as node:http keys headers (`Headers.get` ignores case).
 */
export const SIGNATURE_HEADER = 'x-service-signature';

/** The name of the header that also carries the event ID (the envelope's `id`), lower-case. */
export const EVENT_ID_HEADER = 'x-service-event-id';

const DEFAULT_TOLERANCE_SECONDS = 300;
const HEX_SIGNATURE = /^[0-9a-fA-F]{64}$/;
const DIGITS = /^\d+$/;
const CANONICAL = /^t=(\d+),v1=([0-9a-fA-F]{64})$/;
const decoder = new TextDecoder();

const fail = (reason: WebhookVerificationError['reason'], message: string) =>
  new WebhookVerificationError(reason, message);

/** The secrets as a list; a missing or empty secret is a configuration error worth its own message. */
export function secretsOf(secret: WebhookSecret): readonly string[] {
  const list = typeof secret === 'string' ? [secret] : secret;
  if (
    !Array.isArray(list) ||
    list.length === 0 ||
    !list.every((s) => typeof s === 'string' && s.trim() !== '')
  ) {
    throw fail(
      'missing_secret',
      `No webhook secret (got ${describe(secret)}): pass the signing secret from the dashboard (is the ` +
        'environment variable set?), or a non-empty list of them while rotating.',
    );
  }
  return list;
}

/** The body as a string or bytes, or a `body_not_raw` error that says how to get the raw body. */
export function rawBodyOf(body: unknown): string | Uint8Array {
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  // toString rather than instanceof, so bytes from another realm (vm, worker, iframe) are recognised too.
  if (Object.prototype.toString.call(body) === '[object ArrayBuffer]')
    return new Uint8Array(body as ArrayBuffer);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  const parsed = typeof body === 'object' && body !== null;
  throw fail(
    'body_not_raw',
    (parsed
      ? 'The body is a parsed object; the signature covers the raw bytes, which re-serialising cannot reproduce. '
      : `The body is ${describe(body)}. `) +
      'Pass the raw body: express.raw({ type: "application/json" }) before any express.json(), ' +
      'await request.arrayBuffer() in a fetch handler, the joined chunks in node:http.',
  );
}

/** `t` (the digits exactly as sent, since they are signed) and the well-formed `v1` values, or a header error. */
export function parseSignatureHeader(
  header: SignatureHeader,
  options: VerifyWebhookOptions | undefined,
): { t: string; signatures: string[] } {
  // Repeated headers arrive as an array; join only strings (joining an object runs its toString).
  const value =
    typeof header === 'string'
      ? header
      : Array.isArray(header) && header.every((h) => typeof h === 'string')
        ? header.join(',')
        : undefined;
  if (value === undefined || value.trim() === '') {
    throw fail(
      'missing_header',
      'No X-Service-Signature header: pass req.headers["x-service-signature"] or ' +
        'request.headers.get("x-service-signature"). Is a proxy stripping it?',
    );
  }
  // The form the service sends takes one regex; anything else goes through the general element parser.
  const canonical = CANONICAL.exec(value);
  const { t, signatures } =
    canonical?.[1] !== undefined && canonical[2] !== undefined
      ? { t: canonical[1], signatures: [canonical[2]] }
      : parseElements(value);

  const tolerance = options?.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowInput = options?.now ?? Date.now();
  const now = Math.floor((typeof nowInput === 'number' ? nowInput : nowInput.getTime()) / 1000);
  const skew = now - Number(t);
  // Written so that NaN (a bad `now` or tolerance) rejects instead of accepting.
  if (!(Math.abs(skew) <= tolerance)) {
    throw fail(
      'timestamp_out_of_tolerance',
      `t=${t} is ${Math.abs(skew)} s ${skew >= 0 ? 'in the past' : 'in the future'} (tolerance ${tolerance} s): ` +
        'a replay, a long delay, or a skewed clock here (sync it with NTP).' +
        (t.length >= 12 ? ' t looks like milliseconds; it must be seconds.' : ''),
    );
  }
  return { t, signatures };
}

function parseElements(value: string): { t: string; signatures: string[] } {
  let t: string | undefined;
  const signatures: string[] = [];
  let v1Count = 0;
  for (const part of value.split(',')) {
    const eq = part.indexOf('=');
    const key = (eq === -1 ? part : part.slice(0, eq)).trim();
    const val = eq === -1 ? '' : part.slice(eq + 1).trim();
    if (key === 't') {
      if (t !== undefined) throw malformed('more than one t=');
      if (!DIGITS.test(val)) throw malformed('t= must be whole seconds');
      t = val;
    } else if (key === 'v1') {
      v1Count++;
      if (HEX_SIGNATURE.test(val)) signatures.push(val);
    }
  }
  if (t === undefined) throw malformed('no t=');
  if (v1Count === 0) throw malformed('no v1=');
  if (signatures.length === 0) throw malformed('no v1= is 64 hex digits');
  return { t, signatures };
}

/** The `no_matching_signature` error, with a hint when a secret has surrounding whitespace. */
export function noMatchingSignature(secrets: readonly string[]): WebhookVerificationError {
  const padded = secrets.some((s) => s !== s.trim());
  return fail(
    'no_matching_signature',
    'No v1 signature matches. ' +
      (padded
        ? 'The secret has leading or trailing whitespace (a copied newline?) and is used as given: trim it ' +
          'where you load it. '
        : '') +
      "Check the secret is this endpoint's and the body is the raw body, unmodified (no parse/stringify).",
  );
}

/** Parses a body whose signature already holds. */
export function parseEvent(raw: string | Uint8Array): WebhookEvent {
  let value: unknown;
  try {
    value = JSON.parse(typeof raw === 'string' ? raw : decoder.decode(raw));
  } catch {
    throw fail('invalid_json', 'The signature is valid but the body is not JSON.');
  }
  if (typeof value !== 'object' || value === null || !('event' in value) || typeof value.event !== 'string') {
    throw fail('invalid_json', 'The signature is valid but the body is not a webhook envelope.');
  }
  return value as WebhookEvent;
}

function malformed(problem: string): WebhookVerificationError {
  return fail(
    'malformed_header',
    `X-Service-Signature must be t=<unix seconds>,v1=<hex>, unchanged; here ${problem}.`,
  );
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (typeof value === 'string') return value === '' ? 'an empty string' : 'a blank string';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  return `a value of type ${typeof value}`;
}
