/**
 * The virtual clock that every time rule runs on. `advance` moves time forward timer by timer, running each
 * task at its own moment (so timers scheduled by a task inside the window run too) and awaiting async ones.
 */
import { type Duration, parseDuration } from './duration.js';
import type { MockRuntime } from './runtime.js';
import type { TaskDefinition } from './tasks.js';
import { nowIso } from './timers.js';

/**
 * What an advance did.
 * @example
 * ```ts
 * const { now, ran } = await mock.clock.advance('10m');
 * ```
 */
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

/**
 * The clock of one service.
 * @example
 * ```ts
 * await mock.clock.advance('24h');
 * ```
 */
export interface Clock {
  /** Epoch ms. */
  now(): number;
  nowIso(): string;
  /** Moves time forward by `duration`, running every timer that falls due, in time order. */
  advance(duration: Duration): Promise<AdvanceResult>;
  /** Runs the timers already due (those scheduled at the current time). */
  runDue(): Promise<AdvanceResult>;
  startRealtime(options?: RealtimeOptions): void;
  stop(): void;
  readonly realtime: boolean;
  /** Registers a task for a timer kind on this service only. */
  registerTask<P>(kind: string, run: TaskDefinition<P>['run']): void;
}

/**
 * The clock over a runtime's state. Advances are queued, so a real-time tick and a test never interleave.
 * @example
 * const clock = createClock(runtime);
 */
export function createClock(rt: MockRuntime): Clock {
  let queue: Promise<unknown> = Promise.resolve();
  let interval: ReturnType<typeof setInterval> | undefined;

  const runUntil = async (target: number): Promise<AdvanceResult> => {
    const errors: unknown[] = [];
    let ran = 0;
    for (let timer = rt.state.timers[0]; timer && timer.at <= target; timer = rt.state.timers[0]) {
      rt.state.timers.shift();
      if (timer.at > rt.state.clock.now) rt.state.clock.now = timer.at;
      ran += 1;
      try {
        const task = rt.tasks.get(timer.kind);
        if (!task)
          throw new Error(`No task is registered for timer kind '${timer.kind}' (timer ${timer.id})`);
        const done = task.run(timer.payload, {
          state: rt.state,
          now: rt.state.clock.now,
          timer,
          runtime: rt,
        });
        // Most tasks are synchronous: awaiting only promises saves a microtask turn per timer.
        if (done instanceof Promise) await done;
      } catch (error) {
        // Keep going so one broken task does not freeze time for the rest; report all at the end.
        errors.push(error);
      }
    }
    if (target > rt.state.clock.now) rt.state.clock.now = target;
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} timer tasks failed`);
    return { now: nowIso(rt.state), ran };
  };

  const enqueue = (target: () => number): Promise<AdvanceResult> => {
    const run = queue.then(() => runUntil(target()));
    queue = run.catch(() => undefined);
    return run;
  };

  return {
    now: () => rt.state.clock.now,
    nowIso: () => nowIso(rt.state),
    advance(duration) {
      const ms = parseDuration(duration);
      // The target is fixed when the advance starts, not when it was called, so queued advances add up.
      return enqueue(() => rt.state.clock.now + ms);
    },
    runDue: () => enqueue(() => rt.state.clock.now),
    startRealtime({ speed = 1, tickMs = 100, onError = console.error } = {}) {
      if (interval) throw new Error('The clock is already in real-time mode; call stop() first');
      let last = Date.now();
      interval = setInterval(() => {
        const wall = Date.now();
        const elapsed = (wall - last) * speed;
        last = wall;
        enqueue(() => rt.state.clock.now + elapsed).catch(onError);
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
      rt.tasks.register({ kind, run });
    },
  };
}
