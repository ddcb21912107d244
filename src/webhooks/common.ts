// The steps the sync and async verifiers share: everything but the HMAC. Runtime-neutral (no Buffer, no node:).

import { WebhookVerificationError } from './errors.js';
import type { WebhookEvent } from './events.js';

/**
 * The raw request body, exactly as received: a string, or the bytes (a Buffer is a Uint8Array; an ArrayBuffer is
 * what `await request.arrayBuffer()` gives).
 *
 * @example
 * ```ts
 * import type { WebhookBody } from 'inr-payouts/webhooks';
 *
 * const body: WebhookBody = new TextEncoder().encode('{"event":"user.created"}');
 * ```
 */
export type WebhookBody = string | Uint8Array | ArrayBuffer;

/**
 * The webhook signing secret, or several while rotating it (a message signed with any one of them is accepted).
 *
 * @example
 * ```ts
 * import type { WebhookSecret } from 'inr-payouts/webhooks';
 *
 * const secrets: WebhookSecret = ['whsec_new', 'whsec_old'];
 * ```
 */
export type WebhookSecret = string | readonly string[];

/**
 * The `X-Service-Signature` header value as frameworks hand it over: `headers.get()` gives `string | null`,
 * node:http's `req.headers[...]` gives `string | string[] | undefined`.
 *
 * @example
 * ```ts
 * import type { SignatureHeader } from 'inr-payouts/webhooks';
 *
 * const header: SignatureHeader = new Headers({ 'x-service-signature': 't=1,v1=00' }).get('x-service-signature');
 * ```
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
 *
 * @example
 * ```ts
 * import { SIGNATURE_HEADER } from 'inr-payouts/webhooks';
 *
 * const headerOf = (request: Request) => request.headers.get(SIGNATURE_HEADER);
 * ```
 */
export const SIGNATURE_HEADER = 'x-service-signature';

/**
 * The name of the header that also carries the event ID (the envelope's `id`), lower-case.
 *
 * @example
 * ```ts
 * import { EVENT_ID_HEADER } from 'inr-payouts/webhooks';
 *
 * const eventIdOf = (request: Request) => request.headers.get(EVENT_ID_HEADER);
 * ```
 */
export const EVENT_ID_HEADER = 'x-service-event-id';

const DEFAULT_TOLERANCE_SECONDS = 300;
const HEX_SIGNATURE = /^[0-9a-fA-F]{64}$/;
const DIGITS = /^\d+$/;
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
      `No webhook secret: got ${describe(secret)}. Pass the endpoint's signing secret from the dashboard ` +
        '(is the environment variable set?), or a non-empty array of non-empty secrets while rotating.',
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
      ? 'The body is a parsed object, not the raw request body. The signature covers the exact bytes sent, ' +
        'which re-serialising cannot reproduce. '
      : `The body is ${describe(body)}, not the raw request body. `) +
      'Pass the body as received: in Express mount express.raw({ type: "application/json" }) on this route ' +
      '(before any express.json()) and pass req.body; in a fetch handler pass await request.arrayBuffer() or ' +
      'await request.text(); in node:http collect the request chunks into one Buffer.',
  );
}

/** `t` (the digits exactly as sent, since they are signed) and the well-formed `v1` values, or a header error. */
export function parseSignatureHeader(
  header: SignatureHeader,
  options: VerifyWebhookOptions | undefined,
): { t: string; signatures: string[] } {
  const value = typeof header === 'string' ? header : Array.isArray(header) ? header.join(',') : undefined;
  if (value === undefined || value.trim() === '') {
    throw fail(
      'missing_header',
      'No X-Service-Signature header. Pass its value: req.headers["x-service-signature"] in node:http and ' +
        'Express, request.headers.get("X-Service-Signature") in a fetch handler. A proxy may be stripping it.',
    );
  }
  let t: string | undefined;
  const signatures: string[] = [];
  let v1Count = 0;
  for (const part of value.split(',')) {
    const eq = part.indexOf('=');
    const key = (eq === -1 ? part : part.slice(0, eq)).trim();
    const val = eq === -1 ? '' : part.slice(eq + 1).trim();
    if (key === 't') {
      if (t !== undefined) throw malformed('it has more than one t= element');
      if (!DIGITS.test(val)) throw malformed('t= must be a Unix time in whole seconds');
      t = val;
    } else if (key === 'v1') {
      v1Count++;
      if (HEX_SIGNATURE.test(val)) signatures.push(val);
    }
  }
  if (t === undefined) throw malformed('it has no t= element');
  if (v1Count === 0) throw malformed('it has no v1= signature');
  if (signatures.length === 0) throw malformed('no v1= value is 64 hex digits (an HMAC-SHA256)');

  const tolerance = options?.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowInput = options?.now ?? Date.now();
  const now = Math.floor((typeof nowInput === 'number' ? nowInput : nowInput.getTime()) / 1000);
  const skew = now - Number(t);
  // Written so that NaN (a bad `now` or tolerance) rejects instead of accepting.
  if (!(Math.abs(skew) <= tolerance)) {
    throw fail(
      'timestamp_out_of_tolerance',
      `The signature timestamp t=${t} is ${Math.abs(skew)} s ${skew >= 0 ? 'in the past' : 'in the future'} ` +
        `(tolerance ${tolerance} s). A replayed or long-delayed message is rejected; if deliveries are fresh, ` +
        `sync this server's clock (NTP).` +
        (t.length >= 12 ? ' t looks like milliseconds; the header carries seconds.' : ''),
    );
  }
  return { t, signatures };
}

/** The `no_matching_signature` error, with a hint when a secret has surrounding whitespace. */
export function noMatchingSignature(secrets: readonly string[]): WebhookVerificationError {
  const padded = secrets.some((s) => s !== s.trim());
  return fail(
    'no_matching_signature',
    'No v1 signature matches the body. ' +
      (padded
        ? 'The secret has leading or trailing whitespace (often a newline copied with it); it is used exactly as ' +
          'given, so trim it where you load it if the dashboard value has none. '
        : '') +
      'Check that the secret is this endpoint’s signing secret and that the body is the raw body, unmodified ' +
      '(no JSON.parse/JSON.stringify round trip, no re-encoding).',
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
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !('event' in value)) {
    throw fail('invalid_json', 'The signature is valid but the body is not a webhook envelope (no "event").');
  }
  if (typeof value.event !== 'string') {
    throw fail('invalid_json', 'The signature is valid but the envelope\'s "event" is not a string.');
  }
  return value as WebhookEvent;
}

/** Decodes hex already checked by parseSignatureHeader (no Buffer, so it runs on any runtime). */
export function hexBytes(hex: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++)
    out[i] = (nibble(hex.charCodeAt(2 * i)) << 4) | nibble(hex.charCodeAt(2 * i + 1));
  return out;
}

// '0'-'9' -> 0-9, 'a'-'f' and 'A'-'F' -> 10-15: the low nibble, plus 9 for the letters (bit 6 set).
const nibble = (code: number) => (code & 0xf) + (code >> 6) * 9;

function malformed(problem: string): WebhookVerificationError {
  return fail(
    'malformed_header',
    `X-Service-Signature must look like t=<unix seconds>,v1=<hex HMAC-SHA256>, but ${problem}. ` +
      'Pass the header value unchanged.',
  );
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (typeof value === 'string') return value === '' ? 'an empty string' : 'a blank string';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  return `a value of type ${typeof value}`;
}
