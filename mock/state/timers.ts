/** Timers are data (not closures) so a snapshot or the standalone server's state file keeps pending work. */

/**
 * A pending timer: at `at` (epoch ms on the virtual clock) the task registered for `kind` runs with `payload`.
 */
export interface Timer {
  id: string;
  at: number;
  kind: string;
  payload: unknown;
}
