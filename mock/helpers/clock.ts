/**
 * The clock as plain data in and out (durations as ms or text, times as ISO strings), so the standalone
 * server can serve it over HTTP unchanged.
 */
import type { AdvanceResult } from '../engine/clock.js';
import type { Duration } from '../engine/duration.js';
import type { ServiceInternals } from '../engine/internals.js';
import type { Timer } from '../state/timers.js';

export function clockHelpers(mock: ServiceInternals) {
  return {
    /**
     * The virtual time, ISO 8601 UTC.
     * @example
     * ```ts
     * console.log(mock.helpers.clock.now()); // '2025-01-01T00:00:00.000Z'
     * ```
     */
    now: (): string => mock.engineClock.nowIso(),
    /**
     * Moves time forward, running every timer that falls due, in order; resolves when their tasks settled.
     * @example
     * ```ts
     * await mock.helpers.clock.advance('10m');
     * ```
     */
    advance: (duration: Duration): Promise<AdvanceResult> => mock.engineClock.advance(duration),
    /**
     * Runs the timers due now.
     * @example
     * ```ts
     * await mock.helpers.clock.runDue();
     * ```
     */
    runDue: (): Promise<AdvanceResult> => mock.engineClock.runDue(),
    /**
     * The pending timers, earliest first (a copy).
     * @example
     * ```ts
     * await client.users.create({ mobile: '9876543210' });
     * console.log(mock.helpers.clock.pending().map((t) => t.kind)); // ['webhook.deliver', 'idempotency.expire']
     * ```
     */
    pending: (): Timer[] => structuredClone(mock.state.timers),
  };
}
