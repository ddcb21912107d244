import { sleep } from '../internal/sleep.js';

/**
 * The time every wait of the client runs on (back-off, 429 waits, deadlines, `waitFor...`); `timeout` stays real.
 * The client never runs two sleeps at once, so a `sleep` that just moves the time ahead is enough.
 * @example
 * ```ts
 * import { type ClientClock, PayoutClient } from 'inr-payouts';
 * let now = Date.now();
 * const clock: ClientClock = { now: () => now, sleep: async (ms) => { now += ms; } }; // every wait passes at once
 * const client = new PayoutClient({ apiKey: 'pk_sandbox_example', baseUrl: 'https://sandbox.payouts.example', clock });
 * ```
 */
export interface ClientClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: ClientClock = { now: () => Date.now(), sleep };
