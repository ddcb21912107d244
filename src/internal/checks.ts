/**
 * Request checks written as refinements instead of zod's `z.int()` and `z.url()`: those pull zod's number-format
 * and URL-format schemas into the client bundle (about 0.9 KB min+gzip) for two simple rules.
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
