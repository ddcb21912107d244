// The sync verifier: one header parse, one HMAC per secret, one constant-time compare per v1, one JSON parse.

import type { KeyObject } from 'node:crypto';
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
import { nodeApis } from './node-crypto.js';

// An HMAC keyed with a ready KeyObject is about a quarter faster than one keyed with the string each time.
// Secrets rotate, they do not multiply, so a small map suffices.
const MAX_KEYS = 32;
const keys = new Map<string, KeyObject>();

/**
 * Verifies a webhook (spec 6.3) and returns its event. Checks, in order: the secret is set, the body is raw, the
 * `X-Service-Signature` header is `t=<unix seconds>,v1=<hex>`, `t` is within `toleranceSeconds` (300) of now in
 * either direction, one `v1` is the HMAC-SHA256 of `<t>.<body>` under one of the secrets (compared in constant
 * time), and only then parses the body. Throws {@link WebhookVerificationError} otherwise: answer 401.
 *
 * Runs on node:crypto (Node, Deno, Bun); on runtimes without it use {@link verifyWebhookAsync}.
 * A secret is used exactly as given, never trimmed; when it has surrounding whitespace and nothing matches, the
 * error message says so.
 *
 * @param body - the raw body: a string, Buffer, Uint8Array or ArrayBuffer, never a parsed object
 * @param signatureHeader - the `X-Service-Signature` header value
 * @param secret - the signing secret, or several while rotating
 * @example
 * ```ts
 * import { signWebhook, verifyWebhook } from 'inr-payouts/webhooks';
 *
 * const secret = 'whsec_example';
 * const payload = { id: 'evt_1', event: 'transaction.payout_failed', timestamp: '2025-01-01T00:00:00.000Z',
 *   partnerId: 'p_1', data: { transactionId: 'txn_1', status: 'failed', amountInr: '8450.00',
 *   code: 'PAYOUT_FAILED', reason: 'Beneficiary account closed' } };
 * // In a receiver: the raw body and req.headers['x-service-signature'].
 * const { body, signature } = signWebhook({ payload, secret });
 * const event = verifyWebhook(Buffer.from(body), signature, secret);
 * console.log(event.id, event.event); // evt_1 transaction.payout_failed
 * ```
 */
export function verifyWebhook(
  body: WebhookBody,
  signatureHeader: SignatureHeader,
  secret: WebhookSecret,
  options?: VerifyWebhookOptions,
): WebhookEvent {
  const secrets = secretsOf(secret);
  const raw = rawBodyOf(body);
  const { t, signatures } = parseSignatureHeader(signatureHeader, options);
  const { crypto, Buffer } = nodeApis('verifyWebhook');
  const { createHmac, createSecretKey, timingSafeEqual } = crypto;
  const prefix = `${t}.`;
  // Both sides are 32 bytes: parseSignatureHeader keeps only 64-hex-digit values.
  const candidates = signatures.map((hex) => Buffer.from(hex, 'hex'));
  for (const secretValue of secrets) {
    let key = keys.get(secretValue);
    if (key === undefined) {
      if (keys.size >= MAX_KEYS) keys.clear();
      key = createSecretKey(secretValue, 'utf8');
      keys.set(secretValue, key);
    }
    // One update per call into C++: concatenating a string body is cheaper than a second update.
    const hmac = createHmac('sha256', key);
    const expected = (
      typeof raw === 'string' ? hmac.update(prefix + raw) : hmac.update(prefix).update(raw)
    ).digest();
    for (const candidate of candidates) {
      if (timingSafeEqual(expected, candidate)) return parseEvent(raw);
    }
  }
  throw noMatchingSignature(secrets);
}
