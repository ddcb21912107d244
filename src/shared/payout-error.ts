import { redact, redactCause } from './redact.js';

// Each entry (ESM and CommonJS) bundles its own copy of this class; a brand in the global symbol registry makes
// `instanceof PayoutError` true for an error of any copy.
const BRAND = Symbol.for('inr-payouts.PayoutError');

/**
 * The base of every error inr-payouts throws, webhook verification included; any API key in the message or
 * `cause` is masked.
 * @example
 * ```ts
 * import { PayoutError } from 'inr-payouts';
 * await client.transactions.retrieve('order-unknown').catch((error) => {
 *   if (!(error instanceof PayoutError)) throw error; // a bug of ours, not the service's answer
 * });
 * ```
 */
export class PayoutError extends Error {
  override name = 'PayoutError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(redact(message), options && 'cause' in options ? { cause: redactCause(options.cause) } : undefined);
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class instanceof was asked about (a subclass or this).
    if (this !== PayoutError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && BRAND in value;
  }
}
Object.defineProperty(PayoutError.prototype, BRAND, { value: true });
