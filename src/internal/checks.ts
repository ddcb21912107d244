/**
 * Request checks written as refinements instead of zod's `z.int()`, `z.url()`, `z.minLength()`/`z.maxLength()`
 * and `z.gte()`/`z.lte()`: each of those pulls its own check or format class into the client bundle (about
 * 1.4 KB min+gzip together) for rules a line of code states. Every rule carries its own message, so the
 * issue code zod would have given (`too_small`, `invalid_format`) is never shown.
 */
import * as z from 'zod/mini';

/** A whole number within the safe integer range, as `z.int()` checks. */
export function wholeNumber(error: string) {
  return z.refine<number>((value) => Number.isSafeInteger(value), { error });
}

function canParseUrl(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/** An absolute URL (anything `new URL()` parses), trimmed, as `z.url()` checks it. */
export function absoluteUrl(error: string) {
  return z.string({ error }).check(z.trim(), z.refine(canParseUrl, { error }));
}

/** A string of `min` to `max` characters (UTF-16 code units, as `z.minLength`/`z.maxLength` count). */
export function lengthBetween(min: number, max: number, error: string) {
  return z.refine<string>((value) => value.length >= min && value.length <= max, { error });
}

/** A number from `min` to `max` inclusive, as `z.gte(min)` with `z.lte(max)` checks. */
export function numberBetween(min: number, max: number, error: string) {
  return z.refine<number>((value) => value >= min && value <= max, { error });
}

/** Request field `field`: one of `values`, with a message that lists them (kept in one place, the array). */
export function oneOf<const T extends readonly [string, ...string[]]>(field: string, values: T) {
  return z.literal(values, { error: `${field} must be one of ${values.join(', ')}` });
}
