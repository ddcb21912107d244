/**
 * The mock's virtual clock as a client clock: `now` is virtual time, and `sleep(ms)` advances the virtual
 * clock by `ms` (running every timer that falls due) instead of waiting. A client built on it waits for
 * retries, a 429's `retryAfter`, polling intervals and deadlines in no real time.
 */
import type { Clock } from '../engine/clock.js';

/**
 * The shape of the client's `clock` option (`ClientClock` of `inr-payouts`), written out so the mock needs
 * nothing from the client to provide one.
 */
export interface VirtualClientClock {
  /** Virtual epoch ms. */
  now(): number;
  /** Advances the virtual clock by `ms`; rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** A client clock over `clock`. Sleeps from several clients add up, as queued advances do. */
export function virtualClientClock(clock: Clock): VirtualClientClock {
  return {
    now: () => clock.now(),
    async sleep(ms, signal) {
      signal?.throwIfAborted();
      if (!(ms > 0)) return;
      const advanced = clock.advance(ms).then(() => undefined);
      if (!signal) return advanced;
      // The advance cannot be taken back once queued; an abort only stops this wait for it.
      let onAbort: (() => void) | undefined;
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => reject(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
      });
      try {
        await Promise.race([advanced, aborted]);
      } finally {
        if (onAbort) signal.removeEventListener('abort', onAbort);
      }
    },
  };
}
