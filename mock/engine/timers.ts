/**
 * Scheduling on the virtual clock, as plain edits of `state.timers`, so resolvers and tasks need only the
 * state to schedule work.
 */

import type { MockState } from '../state/mock-state.js';
import type { Timer } from '../state/timers.js';
import { type Duration, parseDuration } from './duration.js';
import type { TaskDefinition } from './tasks.js';

/** The virtual clock's time as an ISO 8601 UTC string (the wire format of every timestamp). */
export function nowIso(state: MockState): string {
  return isoAt(state.clock.now);
}

let lastMs = Number.NaN;
let lastIso = '';

/**
 * Epoch ms as an ISO 8601 UTC string. The last answer is kept: the clock runs many timers at one instant
 * (a thousand transactions confirm a block together), and each step stamps the same time several times.
 */
export function isoAt(ms: number): string {
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}

/** When a timer runs: after a delay from now, or at an absolute epoch ms. */
export type When = Duration | { at: number };

/**
 * Schedules `task` with `payload` (plain data) and returns the timer id. Timers due at the same moment run
 * in the order they were scheduled.
 */
export function schedule<P>(
  state: MockState,
  task: TaskDefinition<P> | string,
  when: When,
  payload: P,
): string {
  const at = typeof when === 'object' ? when.at : state.clock.now + parseDuration(when);
  state.clock.timerSeq += 1;
  const timer: Timer = {
    id: `tmr_${state.clock.timerSeq}`,
    at,
    kind: typeof task === 'string' ? task : task.kind,
    payload,
  };
  const { timers } = state;
  // Most timers are the latest yet (the next block, the next step of a flow): they go at the end.
  const last = timers[timers.length - 1];
  if (!last || last.at <= at) {
    timers.push(timer);
    return timer.id;
  }
  // Binary search for the first timer strictly later, so equal times keep scheduling order.
  let lo = 0;
  let hi = timers.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((timers[mid]?.at ?? 0) <= at) lo = mid + 1;
    else hi = mid;
  }
  timers.splice(lo, 0, timer);
  return timer.id;
}

/** Removes a pending timer; returns whether it was pending. */
export function cancelTimer(state: MockState, timerId: string): boolean {
  const index = state.timers.findIndex((t) => t.id === timerId);
  if (index < 0) return false;
  state.timers.splice(index, 1);
  return true;
}
