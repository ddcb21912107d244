/**
 * Timer tasks: a timer in state names a `kind`; the task registered for that kind runs when it falls due.
 * Tasks are code and live in the service (never in state); domain modules declare theirs with `defineTask`.
 */

import type { MockState } from '../state/mock-state.js';
import type { Timer } from '../state/timers.js';
import type { ServiceInternals } from './internals.js';

/** What a running task gets. */
export interface TaskContext {
  state: MockState;
  /** Epoch ms on the virtual clock: the timer's `at`. */
  now: number;
  timer: Timer;
  mock: ServiceInternals;
}

/**
 * A task for one timer kind. Async tasks (a webhook delivery's `fetch`) are awaited by `clock.advance`.
 * A task must not call `clock.advance` itself (it would wait on itself); it schedules timers instead.
 */
export interface TaskDefinition<P = unknown> {
  readonly kind: string;
  // Method syntax on purpose: it lets a registry hold tasks with different payload types.
  run(payload: P, ctx: TaskContext): void | Promise<void>;
}

/** Declares a task; list it in a module's `tasks` so it is registered on every service. */
export function defineTask<P>(
  kind: string,
  run: (payload: P, ctx: TaskContext) => void | Promise<void>,
): TaskDefinition<P> {
  return { kind, run };
}

/** The tasks of one service instance, by kind. */
export type TaskRegistry = ReturnType<typeof createTaskRegistry>;

/** A registry that refuses two tasks for one kind, so two modules can never silently fight over a timer. */
export function createTaskRegistry() {
  const byKind = new Map<string, TaskDefinition>();
  return {
    register<P>(task: TaskDefinition<P>): void {
      if (byKind.has(task.kind))
        throw new Error(`A task for timer kind '${task.kind}' is already registered`);
      byKind.set(task.kind, task as TaskDefinition);
    },
    get: (kind: string): TaskDefinition | undefined => byKind.get(kind),
  };
}
