import { nodeApis } from './node-crypto.js';

/**
 * Input of {@link signWebhook}.
 *
 * @example
 * ```ts
 * import type { SignWebhookInput } from 'inr-payouts/webhooks';
 *
 * const input: SignWebhookInput = { payload: '{"event":"user.created"}', secret: 'whsec_example', timestamp: 1735689600 };
 * ```
 */
export interface SignWebhookInput {
  /** The envelope: an object is serialised with `JSON.stringify`; a string is signed and sent as is. */
  payload: string | object;
  secret: string;
  /** The header's `t`: Unix time in whole seconds, or a Date. Default: now. */
  timestamp?: number | Date;
}

/** What {@link signWebhook} returns: send `body` with the header `X-Service-Signature: <signature>`. */
export interface SignedWebhook {
  /** `t=<timestamp>,v1=<hex>`, the `X-Service-Signature` value (as `helpers.webhooks.sign` of the mock names it). */
  signature: string;
  /** The exact text that was signed; send these bytes, unchanged. */
  body: string;
  /** `t`, in Unix seconds. */
  timestamp: number;
}

/**
 * Signs a webhook exactly as the service does (spec 6.3): HMAC-SHA256 over `<t>.<body>`, hex, in
 * `t=<t>,v1=<hex>`. For tests and the mock; runs on node:crypto.
 *
 * @example
 * ```ts
 * import { signWebhook } from 'inr-payouts/webhooks';
 *
 * const { signature, body } = signWebhook({
 *   payload: { id: 'evt_1', event: 'user.created', timestamp: '2025-01-01T00:00:00.000Z', partnerId: 'p_1',
 *     data: { userId: 'usr_1', createdAt: '2025-01-01T00:00:00.000Z' } },
 *   secret: 'whsec_example',
 * });
 * // POST body to the receiver with the header X-Service-Signature: signature
 * ```
 */
export function signWebhook(input: SignWebhookInput): SignedWebhook {
  const { payload, secret } = input;
  if (typeof secret !== 'string' || secret === '')
    throw new TypeError('signWebhook needs a non-empty secret.');
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  if (typeof body !== 'string') throw new TypeError('signWebhook: the payload does not serialise to JSON.');
  const ts = input.timestamp ?? new Date();
  const timestamp = ts instanceof Date ? Math.floor(ts.getTime() / 1000) : ts;
  if (!Number.isSafeInteger(timestamp) || timestamp < 0 || timestamp >= 1e11) {
    throw new RangeError(
      `signWebhook: timestamp must be a Unix time in whole seconds (or a Date); got ${String(ts)}` +
        (typeof ts === 'number' && ts >= 1e11 ? ', which looks like milliseconds.' : '.'),
    );
  }
  const v1 = nodeApis('signWebhook')
    .crypto.createHmac('sha256', secret)
    .update(`${timestamp}.`)
    .update(body)
    .digest('hex');
  return { signature: `t=${timestamp},v1=${v1}`, body, timestamp };
}
