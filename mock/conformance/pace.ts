/**
 * Keeps a run inside the target account's rate limit (spec 8: `limits.rateLimit` requests per minute): at most
 * that many requests start in any 60 s, so a fixed or a sliding window on the service never refuses one.
 */

const WINDOW_MS = 60_000;

/** A pacer: `await pacer.next()` before each request. */
export interface Pacer {
  next(): Promise<void>;
  /** Changes the limit (read from the account once it is known). */
  setLimit(perMinute: number): void;
  readonly limit: number;
}

/**
 * A pacer allowing `perMinute` request starts in any 60 s window; `sleep` and `now` are replaceable for tests.
 */
export function createPacer(
  perMinute: number,
  now: () => number = Date.now,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Pacer {
  let limit = Math.max(1, Math.floor(perMinute));
  // Start times of the requests inside the last window, oldest first; never more than `limit` of them.
  const starts: number[] = [];
  let queue: Promise<void> = Promise.resolve();
  const take = async () => {
    for (;;) {
      const at = now();
      while (starts.length > 0 && (starts[0] ?? 0) <= at - WINDOW_MS) starts.shift();
      if (starts.length < limit) {
        starts.push(at);
        return;
      }
      await sleep((starts[0] ?? at) + WINDOW_MS - at);
    }
  };
  return {
    next() {
      // One at a time, in call order: concurrent callers queue.
      const turn = queue.then(take);
      queue = turn.catch(() => {});
      return turn;
    },
    setLimit(perMinute: number) {
      limit = Math.max(1, Math.floor(perMinute));
    },
    get limit() {
      return limit;
    },
  };
}
