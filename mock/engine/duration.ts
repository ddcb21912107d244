/** Durations for the clock and the helpers: milliseconds, or text such as `'10m'`, `'24h'`, `'1h30m'`. */

/** A unit of a duration's text: milliseconds, seconds, minutes, hours, days. */
export type DurationUnit = 'ms' | 's' | 'm' | 'h' | 'd';

/** One `<number><unit>` part of a duration's text (`'10m'`, `'1.5h'`). */
export type DurationPart = `${number}${DurationUnit}`;

/**
 * A duration: milliseconds, or text of one to three `<number><unit>` parts (`'500ms'`, `'10m'`, `'1.5h'`,
 * `'23h59m59s'`), typed so that a misspelt unit (`'10 minutes'`, `'10min'`) fails to compile. `parseDuration`
 * checks the same at run time, for callers without types.
 */
export type Duration =
  | number
  | DurationPart
  | `${DurationPart}${DurationPart}`
  | `${DurationPart}${DurationPart}${DurationPart}`;

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;

/**
 * The longest duration accepted: the whole range of a JavaScript `Date` (100,000,000 days). Anything longer
 * could only move the clock past the last valid time.
 */
const MAX_DURATION_MS = 8.64e15;

function inRange(ms: number, duration: Duration | string): number {
  if (ms > MAX_DURATION_MS) {
    throw new RangeError(
      `The duration ${String(duration)} is too long: at most ${MAX_DURATION_MS} ms (the range of a Date)`,
    );
  }
  return ms;
}

/**
 * Milliseconds in `duration`; throws on a negative number, unreadable text or more than `MAX_DURATION_MS` (8.64e15, the range of a Date).
 * It takes any string, since text from a request body or a command line has no type: any number of parts reads.
 * @example
 * ```ts
 * import { parseDuration } from 'inr-payouts/mock';
 *
 * if (parseDuration('1h30m') !== 5_400_000) throw new Error('1h30m is 5,400,000 ms');
 * if (parseDuration(250) !== 250) throw new Error('numbers are ms');
 * ```
 */
export function parseDuration(duration: Duration | string): number {
  if (typeof duration === 'number') {
    if (!Number.isFinite(duration) || duration < 0) {
      throw new RangeError(`A duration must be a non-negative number of ms, got ${duration}`);
    }
    return inRange(duration, duration);
  }
  const text = duration.trim();
  let total = 0;
  let consumed = 0;
  PART.lastIndex = 0;
  for (let match = PART.exec(text); match; match = PART.exec(text)) {
    total += Number(match[1]) * (UNIT_MS[match[2] ?? ''] ?? Number.NaN);
    consumed = PART.lastIndex;
  }
  if (text === '' || consumed !== text.length || !Number.isFinite(total)) {
    throw new RangeError(
      `Cannot read the duration '${duration}': use ms or text like '500ms', '10m', '24h', '1h30m'`,
    );
  }
  return inRange(total, duration);
}

/**
 * `value` as a `Duration`, once `parseDuration` has read it: for text that has no type (a command line, a bundle
 * file). Throws `parseDuration`'s error on a value it cannot read.
 */
export function asDuration(value: number | string): Duration {
  parseDuration(value);
  return value as Duration;
}
