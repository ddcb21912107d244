/** Durations for the clock and the helpers: milliseconds, or text such as `'10m'`, `'24h'`, `'1h30m'`. */

/** A duration: milliseconds, or a string of `<number><unit>` parts with units `ms`, `s`, `m`, `h`, `d`. */
export type Duration = number | string;

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;

/**
 * The longest duration accepted: the whole range of a JavaScript `Date` (100,000,000 days). Anything longer
 * could only move the clock past the last valid time.
 */
export const MAX_DURATION_MS = 8.64e15;

function inRange(ms: number, duration: Duration): number {
  if (ms > MAX_DURATION_MS) {
    throw new RangeError(
      `The duration ${String(duration)} is too long: at most ${MAX_DURATION_MS} ms (the range of a Date)`,
    );
  }
  return ms;
}

/**
 * Milliseconds in `duration`; throws on a negative number, unreadable text or more than `MAX_DURATION_MS` (8.64e15, the range of a Date).
 * @example
 * ```ts
 * import { parseDuration } from 'inr-payouts/mock';
 *
 * if (parseDuration('1h30m') !== 5_400_000) throw new Error('1h30m is 5,400,000 ms');
 * if (parseDuration(250) !== 250) throw new Error('numbers are ms');
 * ```
 */
export function parseDuration(duration: Duration): number {
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
