/**
 * The virtual clock that every time rule runs on. `advance` moves time forward timer by timer, running each
 * task at its own moment (so timers scheduled by a task inside the window run too) and awaiting async ones.
 *
 * Real-world work a task starts (a webhook POST) runs outside the clock's critical path, in
 * `mock.background`, each piece with a real-time deadline (its start plus `webhookWaitMs`). Before each
 * timer, an explicit `advance` or `runDue` waits for the pieces whose deadline has not passed, so their
 * follow-ups land at their virtual moments; a piece still running past its deadline no longer holds the
 * clock, and delays only its own follow-ups. Real-time ticks never wait.
 */

import { stringField } from '../state/records.js';
import { type Duration, parseDuration } from './duration.js';
import type { ServiceInternals } from './internals.js';
import type { JournalTimer } from './journal.js';
import type { TaskDefinition } from './tasks.js';
import { nowIso } from './timers.js';

/** What an advance did. */
export interface AdvanceResult {
  /** The clock's time afterwards, ISO 8601 UTC. */
  now: string;
  /** How many timers ran. */
  ran: number;
}

/**
 * Real-time mode settings (for the standalone server).
 * @example
 * ```ts
 * mock.clock.startRealtime({ speed: 60 }); // one real second is a virtual minute
 * ```
 */
export interface RealtimeOptions {
  /** Virtual ms per real ms; default 1. */
  speed?: number;
  /** How often (real ms) the clock catches up; default 100. */
  tickMs?: number;
  /** Where a failing task is reported in real-time mode; default `console.error`. */
  onError?: (error: unknown) => void;
}

/** The clock of one service. */
export interface Clock {
  /** Epoch ms. */
  now(): number;
  nowIso(): string;
  /**
   * Moves time forward by `duration`, running every timer that falls due, in time order. `wait: false` does
   * not wait for deliveries in flight (as a real-time tick).
   */
  advance(duration: Duration, options?: { wait?: boolean }): Promise<AdvanceResult>;
  /**
   * Runs the timers already due (those scheduled at the current time). `wait: false` does not wait for
   * deliveries in flight at all (by default each is waited for up to the service's `webhookWaitMs`).
   */
  runDue(options?: { wait?: boolean }): Promise<AdvanceResult>;
  startRealtime(options?: RealtimeOptions): void;
  stop(): void;
  readonly realtime: boolean;
  /** Registers a task for a timer kind on this service only. */
  registerTask<P>(kind: string, run: TaskDefinition<P>['run']): void;
}

/**
 * Waits for the service's background work (webhook POSTs in flight) whose real-time deadline has not
 * passed, until none is left. Finished work may schedule timers, so the caller reads the queue afterwards.
 */
async function settleBackground(mock: ServiceInternals): Promise<void> {
  for (;;) {
    const wall = Date.now();
    const waited = [...mock.background].filter(([, deadline]) => deadline > wall);
    if (waited.length === 0) return;
    const soonest = Math.min(...waited.map(([, deadline]) => deadline));
    let timeout: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<void>((resolve) => {
      timeout = setTimeout(resolve, soonest - wall);
    });
    await Promise.race([Promise.allSettled(waited.map(([work]) => work)), expired]);
    clearTimeout(timeout);
  }
}

/**
 * Whether `runDue` would do nothing now: no move queued, no timer due and no background work to wait for. The
 * standalone server calls `runDue` after every request; most of the time there is nothing to run.
 */
export function nothingDue(mock: ServiceInternals): boolean {
  const { state } = mock;
  const next = state.timers[0];
  return (!next || next.at > state.clock.now) && mock.background.size === 0 && mock.queuedMoves === 0;
}

/** The clock over a service's state. Advances are queued, so a real-time tick and a test never interleave. */
export function createClock(mock: ServiceInternals): Clock {
  let queue: Promise<unknown> = Promise.resolve();
  let interval: ReturnType<typeof setInterval> | undefined;

  const runUntil = async (target: number, wait: boolean): Promise<AdvanceResult> => {
    const errors: unknown[] = [];
    let ran = 0;
    for (;;) {
      if (wait && mock.background.size > 0) await settleBackground(mock);
      // Read once per timer: the state is replaced only between timers (reset, restore).
      const { state } = mock;
      const timer = state.timers[0];
      if (!timer || timer.at > target) break;
      state.timers.shift();
      if (timer.at > state.clock.now) state.clock.now = timer.at;
      ran += 1;
      mock.journal.record<JournalTimer>(state, {
        type: 'timer',
        kind: timer.kind,
        id: timer.id,
        transactionId: stringField(timer.payload, 'transactionId'),
        userId: stringField(timer.payload, 'userId'),
      });
      try {
        const task = mock.tasks.get(timer.kind);
        if (!task)
          throw new Error(`No task is registered for timer kind '${timer.kind}' (timer ${timer.id})`);
        const done = task.run(timer.payload, {
          state,
          now: state.clock.now,
          timer,
          mock,
        });
        // Most tasks are synchronous: awaiting only promises saves a microtask turn per timer.
        if (done instanceof Promise) await done;
      } catch (error) {
        // Keep going so one broken task does not freeze time for the rest; report all at the end.
        errors.push(error);
      }
    }
    if (target > mock.state.clock.now) mock.state.clock.now = target;
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} timer tasks failed`);
    return { now: nowIso(mock.state), ran };
  };

  const enqueue = (target: () => number, wait = true): Promise<AdvanceResult> => {
    mock.queuedMoves += 1;
    const run = queue.then(() => runUntil(target(), wait));
    queue = run
      .catch(() => undefined)
      .finally(() => {
        mock.queuedMoves -= 1;
      });
    return run;
  };

  return {
    now: () => mock.state.clock.now,
    nowIso: () => nowIso(mock.state),
    advance(duration, { wait = true } = {}) {
      const ms = parseDuration(duration);
      // Refused before it is queued, so the clock never moves to a time a Date cannot hold.
      if (!Number.isFinite(new Date(mock.state.clock.now + ms).getTime()))
        throw new RangeError(
          `Advancing by ${String(duration)} would move the clock past the last valid time`,
        );
      // The target is fixed when the advance starts, not when it was called, so queued advances add up.
      return enqueue(() => mock.state.clock.now + ms, wait);
    },
    runDue: ({ wait } = {}) =>
      nothingDue(mock)
        ? Promise.resolve({ now: nowIso(mock.state), ran: 0 })
        : enqueue(() => mock.state.clock.now, wait),
    startRealtime({ speed = 1, tickMs = 100, onError = console.error } = {}) {
      if (interval) throw new Error('The clock is already in real-time mode; call stop() first');
      let last = Date.now();
      interval = setInterval(() => {
        const wall = Date.now();
        const elapsed = (wall - last) * speed;
        last = wall;
        // A tick never waits for work in flight: wall time keeps moving, and so does the clock.
        const move = () => enqueue(() => mock.state.clock.now + elapsed, false);
        // A recording notes the tick (it is an input: wall time), a replay gives it back.
        (mock.tap?.tick(elapsed, move) ?? move()).catch(onError);
      }, tickMs);
      // Real-time mode alone must not keep a process alive.
      interval.unref?.();
    },
    stop() {
      clearInterval(interval);
      interval = undefined;
    },
    get realtime() {
      return interval !== undefined;
    },
    registerTask(kind, run) {
      mock.tasks.register({ kind, run });
    },
  };
}
