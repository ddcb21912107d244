/**
 * Seeded chaos as plain data: what to draw and the generator's state, so a snapshot, a restore or a state file
 * carries on the same sequence of faults.
 */

/**
 * The faults chaos draws from: a 5xx, a burst of 429s, latency past the client's time-out, a connection dropped
 * before the work (`drop`) or after it was done and kept (`drop-after-commit`).
 */
export type ChaosKind = '5xx' | '429' | 'latency' | 'drop' | 'drop-after-commit';

/** One fault chaos drew, in request order. */
export interface ChaosDraw {
  /** The 1-based number of the request among those chaos looked at. */
  request: number;
  method: string;
  path: string;
  kind: ChaosKind;
  /** The status answered (5xx and 429). */
  status?: number;
}

/** Chaos in force. */
export interface ChaosRecord {
  seed: string;
  /** Probability in [0, 1] that a request draws a fault (a 429 burst's follow-ups are not drawn). */
  rate: number;
  kinds: ChaosKind[];
  /** Real milliseconds a `latency` fault holds the request. */
  latencyMs: number;
  /** Only requests matching this (method, route pattern or concrete path) are drawn for; all when absent. */
  match: { method?: string; path?: string };
  /** mulberry32 state (`mock/engine/ids.ts`), a stream of its own so chaos never shifts the IDs. */
  rng: number;
  /** Requests looked at so far. */
  requests: number;
  /** 429s still owed by the current burst. */
  burstRemaining: number;
  /**
   * The faults drawn, in order: the last `CHAOS_LOG_LIMIT` (10,000), so chaos left on for weeks keeps a window,
   * whose first draw's `request` says where it starts.
   */
  log: ChaosDraw[];
}
