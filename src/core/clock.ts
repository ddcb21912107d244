import { sleep } from '../internal/sleep.js';

/**
 * The time every wait of the client runs on: retry back-off, the wait a 429 asks for, each call's overall
 * `deadline`, and every `waitFor...` helper's interval and deadline. Per-attempt network time-outs (`timeout`) stay
 * on real time, since they bound a real socket. The default is the real clock; a test passes the mock's virtual
 * clock so that waits cost no real time. The client never runs two sleeps of one clock at once, so a clock whose
 * `sleep` simply moves its time ahead is enough.
 *
 * @example
 * ```ts
 * import { type ClientClock, PayoutClient } from 'inr-payouts';
 *
 * // A clock that jumps instead of waiting: a 30 s retry wait passes at once.
 * let now = Date.parse('2025-01-01T00:00:00Z');
 * const clock: ClientClock = {
 *   now: () => now,
 *   sleep: async (ms) => {
 *     now += ms;
 *   },
 * };
 * const client = new PayoutClient({ apiKey: 'pk_sandbox_example', baseUrl: 'https://sandbox.payouts.example', clock });
 * await clock.sleep(30_000);
 * console.log(clock.now() - Date.parse('2025-01-01T00:00:00Z')); // 30000
 * ```
 */
export interface ClientClock {
  /** Milliseconds since the epoch, as `Date.now()` gives. */
  now(): number;
  /** Resolves after `ms` milliseconds of this clock; rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The real clock: `Date.now` and timers. */
export const realClock: ClientClock = { now: () => Date.now(), sleep };
