// The WebCrypto verifier, for runtimes without node:crypto (Cloudflare Workers, Vercel Edge, browsers, Deno).
// Imports nothing from node; the test suite checks that.

import {
  noMatchingSignature,
  parseEvent,
  parseSignatureHeader,
  rawBodyOf,
  type SignatureHeader,
  secretsOf,
  type VerifyWebhookOptions,
  type WebhookBody,
  type WebhookSecret,
} from './common.js';
import type { WebhookEvent } from './events.js';

const encoder = new TextEncoder();
// importKey costs more than the HMAC itself; keep a few keys (secrets rotate, they do not multiply).
const MAX_KEYS = 32;
const keys = new Map<string, Promise<CryptoKey>>();

function hmacKey(subtle: SubtleCrypto, secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (key === undefined) {
    if (keys.size >= MAX_KEYS) keys.clear();
    key = subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'verify',
    ]);
    keys.set(secret, key);
    key.catch(() => keys.delete(secret));
  }
  return key;
}

function signedBytes(t: string, raw: string | Uint8Array): Uint8Array<ArrayBuffer> {
  if (typeof raw === 'string') return encoder.encode(`${t}.${raw}`);
  const out = new Uint8Array(t.length + 1 + raw.byteLength);
  encoder.encodeInto(`${t}.`, out);
  out.set(raw, t.length + 1);
  return out;
}

/** Decodes hex already checked by parseSignatureHeader (no Buffer, so it runs on any runtime). */
function hexBytes(hex: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++)
    out[i] = (nibble(hex.charCodeAt(2 * i)) << 4) | nibble(hex.charCodeAt(2 * i + 1));
  return out;
}

// '0'-'9' -> 0-9, 'a'-'f' and 'A'-'F' -> 10-15: the low nibble, plus 9 for the letters (bit 6 set).
const nibble = (code: number) => (code & 0xf) + (code >> 6) * 9;

/**
 * {@link verifyWebhook} on WebCrypto (`globalThis.crypto.subtle`), for edge runtimes: same checks, same
 * errors (as a rejected promise), same result. Each `v1` is checked with `crypto.subtle.verify`, which compares
 * in constant time; the imported key is cached per secret.
 *
 * @example
 * ```ts
 * import { signWebhook, verifyWebhookAsync } from 'inr-payouts/webhooks';
 *
 * const secret = 'whsec_example';
 * const { body, signature } = signWebhook({
 *   payload: { id: 'evt_1', event: 'user.created', timestamp: '2025-01-01T00:00:00.000Z', partnerId: 'p_1',
 *     data: { userId: 'usr_1', createdAt: '2025-01-01T00:00:00.000Z' } },
 *   secret,
 * });
 * // In a fetch handler: await request.arrayBuffer() and request.headers.get('X-Service-Signature').
 * const request = new Request('https://partner.example/webhooks', { method: 'POST', body, headers: { 'X-Service-Signature': signature } });
 * const event = await verifyWebhookAsync(await request.arrayBuffer(), request.headers.get('X-Service-Signature'), secret);
 * console.log(event.event); // user.created
 * ```
 */
export async function verifyWebhookAsync(
  body: WebhookBody,
  signatureHeader: SignatureHeader,
  secret: WebhookSecret,
  options?: VerifyWebhookOptions,
): Promise<WebhookEvent> {
  const secrets = secretsOf(secret);
  const raw = rawBodyOf(body);
  const { t, signatures } = parseSignatureHeader(signatureHeader, options);
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined) {
    throw new Error('verifyWebhookAsync needs WebCrypto (globalThis.crypto.subtle).');
  }
  const message = signedBytes(t, raw);
  const candidates = signatures.map(hexBytes);
  for (const secretValue of secrets) {
    const key = await hmacKey(subtle, secretValue);
    for (const candidate of candidates) {
      if (await subtle.verify('HMAC', key, candidate, message)) return parseEvent(raw);
    }
  }
  throw noMatchingSignature(secrets);
}
