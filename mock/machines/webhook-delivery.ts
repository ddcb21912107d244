/**
 * Webhook delivery and retry (spec 3.4, 6.4) as pure functions: attempt 1 is immediate, then 1, 2, 4 and
 * 8 seconds before attempts 2 to 5; any answer outside 200-299 (or a 30-second time-out) is a failure; after
 * the fifth failure the event is `failed`. A manual retry is one more attempt: delivered on a 2xx, back to
 * `failed` otherwise (it does not restart the automatic schedule).
 */
import { findTransition, type Transition } from './transition-table.js';

/** Delay before each automatic attempt, in ms (index 0 is attempt 1). */
const RETRY_DELAYS_MS = [0, 1_000, 2_000, 4_000, 8_000] as const;

/** The service gives up on an answer after this long (spec 6.4, 8). */
export const DELIVERY_TIMEOUT_MS = 30_000;

/** How one attempt ended. */
export interface AttemptOutcome {
  ok: boolean;
  /** No answer within 30 s: the next attempt counts its delay from when the service gave up. */
  timedOut?: boolean;
}

/**
 * The event's delivery state after an attempt: its status, and when the next attempt runs (epoch ms), if any.
 */
export interface DeliveryStep {
  status: 'pending' | 'delivered' | 'failed';
  nextAttempt?: number;
  nextAttemptAt?: number;
}

/** Conditions on a row of the delivery table, in the words the diagram shows. */
export type DeliveryCondition = 'answered 2xx' | 'failed, attempts left' | 'failed';

/**
 * The event's delivery status, as the rows `afterAttempt` looks the next status up in (and the diagram in
 * docs/diagrams/ is drawn from). A manual retry (`POST /v2/webhooks/{eventId}/retry`) may be asked for in any
 * status; it sends one attempt and does not restart the automatic schedule.
 */
export const DELIVERY_TRANSITIONS: readonly Transition<
  DeliveryStep['status'],
  'automatic attempt' | 'manual retry',
  DeliveryCondition
>[] = [
  { from: ['pending'], event: 'automatic attempt', when: 'answered 2xx', to: 'delivered' },
  { from: ['pending'], event: 'automatic attempt', when: 'failed, attempts left', to: 'pending' },
  { from: ['pending'], event: 'automatic attempt', when: 'failed', to: 'failed' },
  { from: ['pending', 'delivered', 'failed'], event: 'manual retry', when: 'answered 2xx', to: 'delivered' },
  { from: ['pending', 'delivered', 'failed'], event: 'manual retry', when: 'failed', to: 'failed' },
];

/** What follows attempt number `attempt` (1-based) that started at `startedAt` and ended with `outcome`. */
export function afterAttempt(
  attempt: number,
  trigger: 'automatic' | 'manual',
  outcome: AttemptOutcome,
  startedAt: number,
): DeliveryStep {
  const delay = RETRY_DELAYS_MS[attempt];
  const condition: DeliveryCondition = outcome.ok
    ? 'answered 2xx'
    : trigger === 'automatic' && delay !== undefined
      ? 'failed, attempts left'
      : 'failed';
  const event = trigger === 'manual' ? 'manual retry' : 'automatic attempt';
  // Every attempt runs while the event is pending (a manual retry sets it pending first).
  const row = findTransition(DELIVERY_TRANSITIONS, 'pending', event, (when) => when === condition);
  const status = row?.to ?? 'failed';
  if (status !== 'pending' || delay === undefined) return { status };
  const failedAt = startedAt + (outcome.timedOut ? DELIVERY_TIMEOUT_MS : 0);
  return { status, nextAttempt: attempt + 1, nextAttemptAt: failedAt + delay };
}

/** Whether an HTTP status counts as delivered (spec 6.4: 200-299). */
export function isDelivered(status: number): boolean {
  return status >= 200 && status <= 299;
}
