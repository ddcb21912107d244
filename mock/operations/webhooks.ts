/**
 * The `webhook.deliver` task (spec 6.3, 6.4): signs the event's envelope with the account's secret, POSTs it
 * to the account's webhook URL with the global `fetch` (or the one a test put in with
 * `helpers.webhooks.useFetch`), records the attempt, and schedules the next one on the virtual clock.
 *
 * The POST runs outside the clock's critical path (`mock.background`), so a receiver that never answers
 * delays only its own event. Real time maps to virtual time like this: the attempt is sent at its timer's
 * virtual moment and recorded at that moment whenever its answer comes; the 30-second time-out is real time
 * (an abort signal); the next attempt is scheduled from the virtual send time (plus 30 s after a time-out)
 * and its retry delay, or, when the clock has already passed that moment, runs as soon as the answer comes.
 */
import { describeError } from '../../src/shared/describe-error.js';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, signWebhook } from '../../src/webhooks/index.js';
import { setEventStatus } from '../engine/event-index.js';
import { WEBHOOK_DELIVER } from '../engine/events.js';
import type { ServiceInternals } from '../engine/internals.js';
import { capBody, type JournalWebhook } from '../engine/journal.js';
import { defineTask } from '../engine/tasks.js';
import { cancelTimer, isoAt, schedule } from '../engine/timers.js';
import {
  type AttemptOutcome,
  afterAttempt,
  DELIVERY_TIMEOUT_MS,
  isDelivered,
} from '../machines/webhook-delivery.js';
import type { MockState } from '../state/mock-state.js';
import { stringField } from '../state/records.js';
import type { DeliveryAttempt, WebhookEventRecord } from '../state/webhooks.js';
import { recordTransition } from './transitions.js';

export type { WebhookFetch } from '../engine/internals.js';

/**
 * msw's bypass marker (what its `bypass()` adds), on every POST the mock sends to a partner's receiver: a
 * partner's own `setupServer`, even with `onUnhandledRequest: 'error'`, lets it through to the real receiver
 * and strips the marker.
 */
export const MSW_PASSTHROUGH: Readonly<Record<string, string>> = { accept: 'msw/passthrough' };

/** The delivery timer's payload: the event, which automatic attempt this is, and what asked for it. */
export interface DeliverPayload {
  eventId: string;
  attempt?: number;
  trigger?: 'automatic' | 'manual';
}

async function send(
  mock: ServiceInternals,
  url: string,
  init: RequestInit,
): Promise<AttemptOutcome & Partial<DeliveryAttempt>> {
  const fetcher = mock.webhookFetch ?? ((u: string, i: RequestInit) => fetch(u, i));
  try {
    // A 3xx is an answer outside 200-299 (spec 6.4): never followed, so it is a failed attempt.
    const response = await fetcher(url, {
      ...init,
      redirect: 'manual',
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    // Read to the end, which releases the connection; the text is kept for a test (or a receiver check) to read.
    const text = await response.text().catch(() => '');
    return { ok: isDelivered(response.status), status: response.status, responseBody: capBody(text).text };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    const message = describeError(error);
    return { ok: false, timedOut, error: timedOut ? 'timeout' : message };
  }
}

/** Schedules a delivery attempt of `record` at `at` (epoch ms) and notes it on the record. */
function scheduleDelivery(
  state: MockState,
  record: WebhookEventRecord,
  at: number,
  attempt: number,
  trigger: 'automatic' | 'manual',
): void {
  const payload: DeliverPayload = { eventId: record.id, attempt, trigger };
  const timerId = schedule(state, WEBHOOK_DELIVER, { at }, payload);
  record.nextAttempt = { attempt, at: new Date(at).toISOString(), timerId, trigger };
}

/** `POST /v2/webhooks/{eventId}/retry` (spec 4.12): it replaces any automatic attempt still waiting, so the event is sent once. */
export function retryDelivery(state: MockState, record: WebhookEventRecord, now: number): void {
  if (record.nextAttempt) cancelTimer(state, record.nextAttempt.timerId);
  setEventStatus(state, record, 'pending');
  scheduleDelivery(state, record, now, record.attempts + 1, 'manual');
}

/** The `webhook.deliver` task: one attempt, then the next is scheduled or the event is failed. */
export const webhookDeliver = defineTask<DeliverPayload>(WEBHOOK_DELIVER, async (payload, ctx) => {
  const { state, now, mock, timer } = ctx;
  const record = state.webhooks.byId[payload.eventId];
  const account = record ? state.accounts.byId[record.accountId] : undefined;
  // Without a URL the event is kept `pending` and can be delivered later with a manual retry.
  if (!record || !account?.webhookUrl) return;
  if (record.nextAttempt && record.nextAttempt.timerId !== timer.id) return;
  record.nextAttempt = undefined;
  const attempt = payload.attempt ?? 1;
  const trigger = payload.trigger ?? 'automatic';
  // The signature's `t` is the wall clock at the POST, so a receiver checks it against its own clock
  // (spec 6.3's 300 s tolerance) whatever virtual time has passed; the envelope keeps the virtual time.
  const wall = Math.floor(Date.now() / 1000);
  // A recording notes the second and the answer; a replay signs with the recorded second and answers as then.
  const tapped = mock.tap?.attempt(record.id, wall);
  const signed = signWebhook({
    payload: JSON.stringify(record.envelope),
    secret: account.webhookSecret,
    timestamp: tapped?.timestamp ?? wall,
  });
  const headers = {
    ...MSW_PASSTHROUGH,
    'content-type': 'application/json',
    'user-agent': 'inr-payouts-mock',
    [SIGNATURE_HEADER]: signed.signature,
    [EVENT_ID_HEADER]: record.id,
  };
  const url = account.webhookUrl;
  const sent: SentAttempt = { attempt, trigger, now, url, body: signed.body, headers };
  const post = () => send(mock, url, { method: 'POST', headers, body: signed.body });
  const delivery = (tapped ? tapped.answer(post) : post())
    .then((outcome) => {
      // A reset or restore while the request was out replaces the state: the attempt belongs to the old one.
      // The record is read again by its ID after the wait, so the state file sees the change as this turn's.
      if (mock.state !== state || state.webhooks.byId[payload.eventId] !== record) return;
      // The clock already passed the retry's moment (the answer was late): run it now, off the clock's budget.
      if (recordAttempt(mock, record, sent, outcome)) return mock.engineClock.runDue({ wait: false });
    })
    // Nothing awaits a delivery's result, so a failure here is reported rather than lost.
    .catch((error: unknown) => console.error('inr-payouts mock: a webhook delivery failed to record', error))
    .finally(() => mock.background.delete(delivery));
  // The clock waits for the answer up to `webhookWaitMs` of real time, then goes on without it.
  mock.background.set(delivery, Date.now() + mock.options.webhookWaitMs);
});

/** An attempt as sent: `attempt` is its number in the automatic schedule, `now` the virtual time it was sent at. */
type SentAttempt = Pick<DeliveryAttempt, 'attempt' | 'trigger' | 'url' | 'body' | 'headers'> & {
  now: number;
};

/** Records an answered attempt at its virtual send time; returns whether its retry is already due. */
function recordAttempt(
  mock: ServiceInternals,
  record: WebhookEventRecord,
  sent: SentAttempt,
  outcome: AttemptOutcome & Partial<DeliveryAttempt>,
): boolean {
  const { state } = mock;
  const { attempt, trigger, now, url, headers } = sent;
  record.attempts += 1;
  record.deliveries.push({
    attempt: record.attempts,
    at: new Date(now).toISOString(),
    url,
    body: sent.body,
    headers,
    status: outcome.status,
    responseBody: outcome.responseBody,
    error: outcome.error,
    ok: outcome.ok,
    trigger,
  });
  const step = afterAttempt(attempt, trigger, outcome, now);
  const from = record.status;
  setEventStatus(state, record, step.status);
  if (from !== step.status) {
    recordTransition(mock, {
      resource: 'webhook-delivery',
      id: record.id,
      machine: 'webhook-delivery',
      from,
      to: step.status,
      trigger: trigger === 'manual' ? 'manual retry' : 'automatic attempt',
      userId: eventUserId(record),
      transactionId: record.transactionId,
    });
  }
  if (step.status === 'delivered') record.deliveredAt = new Date(now).toISOString();
  if (step.nextAttempt === undefined || step.nextAttemptAt === undefined) {
    journalAttempt(mock, record, sent, outcome, undefined);
    return false;
  }
  const at = Math.max(step.nextAttemptAt, state.clock.now);
  scheduleDelivery(state, record, at, step.nextAttempt, 'automatic');
  journalAttempt(mock, record, sent, outcome, at);
  return at <= state.clock.now;
}

/** The attempt in the journal, at its virtual send time (its answer may come later). */
function journalAttempt(
  mock: ServiceInternals,
  record: WebhookEventRecord,
  sent: SentAttempt,
  outcome: AttemptOutcome & Partial<DeliveryAttempt>,
  nextAt: number | undefined,
): void {
  const { state, journal } = mock;
  const userId = eventUserId(record);
  const kept = capBody(sent.body);
  const entry = journal.record<JournalWebhook>(state, {
    type: 'webhook',
    eventId: record.id,
    eventType: record.eventType,
    attempt: record.attempts,
    ok: outcome.ok,
    status: outcome.status,
    error: outcome.error,
    nextAttemptAt: nextAt === undefined ? undefined : new Date(nextAt).toISOString(),
    userId,
    transactionId: record.transactionId,
    body: kept.text,
    bodyCut: kept.cut || undefined,
  });
  entry.at = isoAt(sent.now);
}

/** The user an event is about, when its data names one. */
function eventUserId(record: WebhookEventRecord): string | undefined {
  return stringField(record.envelope.data, 'userId');
}
