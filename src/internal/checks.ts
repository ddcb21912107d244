// Refinements instead of zod's `z.int()`, `z.url()`, length and range checks: each pulls its own class into the
// client bundle (about 1.4 KB min+gzip together) for a one-line rule, and each rule here carries its message.
import * as z from 'zod/mini';

export function wholeNumber(error: string) {
  return z.refine<number>((value) => Number.isSafeInteger(value), { error });
}

export function absoluteUrl(error: string) {
  return z.string({ error }).check(
    z.trim(),
    z.refine((value) => URL.canParse(value), { error }),
  );
}

export function lengthBetween(min: number, max: number, error: string) {
  return z.refine<string>((value) => value.length >= min && value.length <= max, { error });
}

export function numberBetween(min: number, max: number, error: string) {
  return z.refine<number>((value) => value >= min && value <= max, { error });
}

export function oneOf<const T extends readonly [string, ...string[]]>(field: string, values: T) {
  return z.literal(values, { error: `${field} must be one of ${values.join(', ')}` });
}
