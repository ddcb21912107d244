// The base error class, shared by the client entry and the `inr-payouts/webhooks` entry. It imports nothing, so
// the webhooks entry stays free of client code; the client installs its key redaction (see core/errors.ts).

// Each entry is bundled on its own (and ESM and CommonJS builds may both load), so one program can hold several
// copies of this class. A brand shared through the global symbol registry makes `instanceof PayoutError` true for
// an error made by any copy.
const BRAND = Symbol.for('inr-payouts.PayoutError');

type Scrub = (message: string, options: { cause?: unknown } | undefined) => [string, { cause?: unknown }?];
let scrub: Scrub = (message, options) => [message, options];

/** Installs what every error's message and cause go through first (the client's API key redaction). */
export function scrubErrorsWith(fn: Scrub): void {
  scrub = fn;
}

/**
 * The base of every error inr-payouts throws, webhook verification included, so one `instanceof PayoutError`
 * catches them all. Any API key in the message or the `cause` is masked.
 *
 * @example
 * ```ts
 * import { PayoutError } from 'inr-payouts';
 * const failure: unknown = new PayoutError('something went wrong');
 * if (failure instanceof PayoutError) console.log(failure.name); // 'PayoutError'
 * ```
 */
export class PayoutError extends Error {
  override name = 'PayoutError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(...scrub(message, options));
  }

  /** `instanceof PayoutError` holds for errors of every copy of the package; subclasses check as usual. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class instanceof was asked about (a subclass or this).
    if (this !== PayoutError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && BRAND in value;
  }
}
Object.defineProperty(PayoutError.prototype, BRAND, { value: true });
