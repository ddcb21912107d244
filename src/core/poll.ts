import { type ClientClock, realClock } from './clock.js';
import { APIUserAbortError, PayoutError } from './errors.js';

/** How a `waitFor...` helper polls: how often, for how long, and what stops it. */
export interface PollOptions {
  /** Milliseconds between two reads (never less than {@link MIN_POLL_INTERVAL_MS}). */
  interval?: number;
  /** Milliseconds the whole wait may take before it fails with {@link PollTimeoutError}, on the client's clock. */
  deadline?: number;
  /** Stops the wait (and the read in flight) with `APIUserAbortError`. */
  signal?: AbortSignal;
}

/** The shortest wait between two reads, so a poll is never a tight loop. */
export const MIN_POLL_INTERVAL_MS = 50;

/**
 * A `waitFor...` helper reached its deadline first; `lastValue` shows where things stood. Wait again, or read later.
 * @example
 * ```ts
 * import { PollTimeoutError } from 'inr-payouts';
 * const error = new PollTimeoutError('transaction txn_1 to reach completed', 60_000, { status: 'payout_processing' });
 * console.log(error.deadline, error.lastValue); // 60000 { status: 'payout_processing' }
 * ```
 */
export class PollTimeoutError extends PayoutError {
  override name = 'PollTimeoutError';
  /** Milliseconds. */
  readonly deadline: number;
  /** The last value read before the deadline, if any read succeeded. */
  readonly lastValue: unknown;
  constructor(what: string, deadline: number, lastValue: unknown, hint?: string) {
    super(
      `Gave up waiting for ${what} after ${deadline} ms; ${
        hint ?? 'it may still get there: wait again with a longer `deadline`, or read it later.'
      }`,
    );
    this.deadline = deadline;
    this.lastValue = lastValue;
  }
}

export type PollSettings = PollOptions & { interval: number; deadline: number; clock?: ClientClock };

/** The caller's poll settings over the helper's defaults; an `undefined` one keeps the default. */
export function pollSettings(
  defaults: { interval: number; deadline: number },
  options: PollOptions = {},
  clock: ClientClock = realClock,
): PollSettings {
  const interval = options.interval ?? defaults.interval;
  const deadline = options.deadline ?? defaults.deadline;
  return { interval, deadline, signal: options.signal, clock };
}

export function withSignal<O extends { signal?: AbortSignal }>(
  options: O | undefined,
  signal: AbortSignal,
): O {
  const own = options?.signal;
  return { ...options, signal: own ? AbortSignal.any([own, signal]) : signal } as O;
}

/** Done, or not: `allow` moves the deadline to at least `allow` ms from now; `hint` is a timeout's advice. */
export type PollStep<R> =
  | { done: true; value: R }
  | { done: false; allow?: number; hint?: string | undefined };

/** Reads until `decide` says done or throws; each read's signal fires at the deadline or on abort. */
export async function poll<T, R>(
  what: string,
  read: (signal: AbortSignal) => PromiseLike<T>,
  decide: (value: T) => PollStep<R>,
  options: PollSettings,
): Promise<R> {
  const interval = Math.max(MIN_POLL_INTERVAL_MS, options.interval);
  const { signal, clock = realClock } = options;
  const startedAt = clock.now();
  let deadlineAt = startedAt + options.deadline;
  let lastValue: unknown;
  let hint: string | undefined;
  const stop = new AbortController();
  const onAbort = () => stop.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const timeout = () => new PollTimeoutError(what, deadlineAt - startedAt, lastValue, hint);
  // A read takes real time, so a real timer over the span left on the clock cuts one in flight; the waits use the
  // clock, never two sleeps at once (so a virtual clock that jumps ahead stays consistent).
  const arm = () => setTimeout(() => stop.abort(timeout()), deadlineAt - clock.now());
  let timer = arm();
  const ended = () => {
    if (signal?.aborted) return new APIUserAbortError(`waiting for ${what}`, { cause: signal.reason });
    if (stop.signal.aborted || clock.now() >= deadlineAt) return timeout();
    return undefined;
  };
  try {
    for (;;) {
      const before = ended();
      if (before) throw before;
      let value: T;
      try {
        value = await read(stop.signal);
      } catch (error) {
        throw ended() ?? error;
      }
      lastValue = value;
      const step = decide(value);
      if (step.done) return step.value;
      hint = step.hint;
      if (step.allow !== undefined && clock.now() + step.allow > deadlineAt) {
        deadlineAt = clock.now() + step.allow;
        clearTimeout(timer);
        timer = arm();
      }
      const wait = Math.min(interval, deadlineAt - clock.now());
      if (wait <= 0) throw timeout();
      try {
        await clock.sleep(wait, stop.signal);
      } catch (error) {
        // A clock that refuses to sleep says why (a client on real time polling a mock on a manual clock).
        throw ended() ?? error;
      }
    }
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}
