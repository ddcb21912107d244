// Refinements instead of zod's `z.int()`, `z.url()`, length and range checks: each pulls its own class into the
// client bundle (about 1.4 KB min+gzip together) for a one-line rule, and each rule here carries its message.
import * as z from 'zod/mini';

/** A whole number from `min` to `max`; `error` for anything else. */
export function wholeNumberBetween(min: number, max: number, error: string) {
  return z.number({ error }).check(
    z.refine((value) => Number.isSafeInteger(value), { error }),
    numberBetween(min, max, error),
  );
}

/** A string `pattern` matches; `error` for anything else. */
export function stringMatching(pattern: RegExp, error: string) {
  return z.string({ error }).check(z.regex(pattern, { error }));
}

export function absoluteUrl(error: string) {
  return z.string({ error }).check(
    z.trim(),
    z.refine((value) => URL.canParse(value), { error }),
  );
}

/** A string of `min` to `max` characters; `error` for anything else. */
export function stringOfLength(min: number, max: number, error: string) {
  return z
    .string({ error })
    .check(z.refine((value) => value.length >= min && value.length <= max, { error }));
}

export function numberBetween(min: number, max: number, error: string) {
  return z.refine<number>((value) => value >= min && value <= max, { error });
}

export function oneOf<const T extends readonly [string, ...string[]]>(field: string, values: T) {
  return z.literal(values, { error: `${field} must be one of ${values.join(', ')}` });
}
