import { PayoutError } from '../shared/payout-error.js';

const BRAND = Symbol.for('inr-payouts.WebhookVerificationError');

/**
 * Why a webhook was rejected, machine-readable. Answer 401 for every one of them (spec 6.3.5); log the error's
 * `message`, which says what to fix.
 *
 * - `missing_secret`: no secret was given (an unset environment variable, an empty string or list).
 * - `body_not_raw`: the body is not the raw request body (a parsed object, `undefined`, a number...).
 * - `missing_header`: no `X-Service-Signature` header.
 * - `malformed_header`: the header is not `t=<unix seconds>,v1=<64 hex digits>`.
 * - `timestamp_out_of_tolerance`: `t` is further from now than the tolerance (300 s by default), either way.
 * - `no_matching_signature`: no `v1` value matches the body under any of the secrets.
 * - `invalid_json`: the signature holds but the body is not a JSON webhook envelope.
 */
export type WebhookVerificationReason =
  | 'missing_secret'
  | 'body_not_raw'
  | 'missing_header'
  | 'malformed_header'
  | 'timestamp_out_of_tolerance'
  | 'no_matching_signature'
  | 'invalid_json';

/**
 * The one error `verifyWebhook` and `verifyWebhookAsync` throw for a message they reject. `reason` is for code,
 * `message` is for the developer reading the log; neither ever contains the secret. A {@link PayoutError}, so one
 * `catch` of the client's base class catches it too.
 *
 * @example
 * ```ts
 * import { verifyWebhook, WebhookVerificationError } from 'inr-payouts/webhooks';
 *
 * try {
 *   verifyWebhook('{"event":"user.created"}', undefined, 'whsec_example');
 * } catch (error) {
 *   if (error instanceof WebhookVerificationError) {
 *     console.log(error.reason); // 'missing_header': answer 401
 *   }
 * }
 * ```
 */
export class WebhookVerificationError extends PayoutError {
  /**
   * True for this error from either entry (`inr-payouts/webhooks` or the client's `webhooks.unwrap`), which are
   * bundled apart: the class is recognised by a brand in the global symbol registry.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && BRAND in value;
  }

  override readonly name = 'WebhookVerificationError';
  /** What failed; stable across versions, safe to branch on and to put in metrics. */
  readonly reason: WebhookVerificationReason;

  constructor(reason: WebhookVerificationReason, message: string) {
    super(message);
    this.reason = reason;
  }
}
Object.defineProperty(WebhookVerificationError.prototype, BRAND, { value: true });
