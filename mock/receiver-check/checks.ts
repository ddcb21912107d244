/**
 * The battery of the receiver check: each check delivers one or a few events the way the service would (or
 * the way an attacker or a broken network would) and grades the answers against spec 6.3 and 6.4.
 *
 * What the receiver did with an event is read from its answers: a repeated event must be answered 2xx with
 * `duplicate: true` in a JSON body, and an event of a type it does not act on may be answered 2xx with
 * `ignored: true`, as `createWebhookHandler` answers (docs/checking-your-receiver.md). The checks of "processed
 * once" use the first type the receiver acts on.
 */
import { signWebhook } from '../../src/webhooks/index.js';
import {
  type DeliveryOutcome,
  deliver,
  describeOutcome,
  isSuccess,
  saysDuplicate,
  saysIgnored,
} from './deliver.js';
import type { checkEvents } from './events.js';

/** How one check came out: `skip` when it cannot run with the options given (one secret: no rotation). */
export type CheckGrade = 'pass' | 'fail' | 'warn' | 'skip';

/** One line of the report. */
export interface CheckResult {
  name: string;
  grade: CheckGrade;
  /** What was delivered. */
  sent: string;
  /** What came back. */
  received: string;
  /** What the spec expects, with its section. */
  expected: string;
  /** How to fix the receiver; present on `fail` and `warn`. */
  fix?: string;
}

/** What every check gets. */
export interface CheckContext {
  url: string;
  /** The current secret first, then the others of a rotation. */
  secrets: readonly string[];
  timeoutMs: number;
  fastMs: number;
  retryDelayMs: number;
  /** Wall clock, ms: the signatures' `t` must fall inside the receiver's tolerance. */
  now: () => number;
  fetch: typeof fetch;
  events: ReturnType<typeof checkEvents>;
  /** The event types the receiver answered `ignored: true`, found by the checks as they go. */
  ignored: Set<string>;
}

type Check = (ctx: CheckContext) => Promise<Omit<CheckResult, 'name'>>;

interface SendOptions {
  secret?: string;
  /** Seconds added to now for the header's `t`. */
  shift?: number;
  /** Turns the signed body into the one sent (the signature stays the original's). */
  alter?: (body: string) => string;
  /** Replaces the signature header; `null` sends none. */
  signature?: string | null;
  /** Serialises the envelope (default JSON.stringify). */
  serialise?: (payload: object) => string;
}

function send(
  ctx: CheckContext,
  payload: { id: string },
  options: SendOptions = {},
): Promise<DeliveryOutcome> {
  const secret = options.secret ?? ctx.secrets[0] ?? '';
  const timestamp = Math.floor(ctx.now() / 1000) + (options.shift ?? 0);
  const body = options.serialise ? options.serialise(payload) : JSON.stringify(payload);
  const signed = signWebhook({ payload: body, secret, timestamp });
  const signature = options.signature === null ? undefined : (options.signature ?? signed.signature);
  const sentBody = options.alter ? options.alter(signed.body) : signed.body;
  return deliver(ctx.fetch, ctx.url, { body: sentBody, signature, eventId: payload.id }, ctx.timeoutMs);
}

/** A pass, or a failure with its fix. */
function graded(
  passed: boolean,
  line: Pick<CheckResult, 'sent' | 'received' | 'expected'>,
  fix: string,
): Omit<CheckResult, 'name'> {
  return passed ? { grade: 'pass', ...line } : { grade: 'fail', ...line, fix };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const HANDLER = 'createWebhookHandler from inr-payouts/webhooks/handler';
const VERIFY_FIX = `build the receiver on ${HANDLER}, which verifies every delivery before anything else and answers 401 (by hand: verifyWebhook(rawBody, signature, secret) from inr-payouts/webhooks, and 401 when it throws)`;

/** The event types tried, in order, for a check that needs an event the receiver processes. */
const ACTED_ON = ['userCreated', 'kycUpdated', 'payoutInitiated', 'payoutCompleted'] as const;

/** The check's event of the `index`th type tried; each type has an ID of its own. */
const candidate = (ctx: CheckContext, name: string, index: number) =>
  ctx.events[ACTED_ON[index] ?? ACTED_ON[0]](index === 0 ? name : `${name}-${index}`);

/**
 * Delivers an event of each type in turn, skipping those the receiver answered `ignored: true` before, until one
 * is answered otherwise: the event and that first answer, or the types tried when it acts on none of them.
 */
async function actedOn(
  ctx: CheckContext,
  name: string,
): Promise<{ event: { id: string; event: string }; first: DeliveryOutcome } | { ignoredAll: string }> {
  for (const index of ACTED_ON.keys()) {
    const event = candidate(ctx, name, index);
    if (ctx.ignored.has(event.event)) continue;
    const first = await send(ctx, event);
    if (!saysIgnored(first)) return { event, first };
    ctx.ignored.add(event.event);
  }
  return { ignoredAll: ACTED_ON.map((_, index) => candidate(ctx, name, index).event).join(', ') };
}

/** An event of the first type not known to be ignored (found by the checks before). */
function actedEvent(ctx: CheckContext, name: string) {
  const index = ACTED_ON.findIndex((_, i) => !ctx.ignored.has(candidate(ctx, name, i).event));
  return candidate(ctx, name, Math.max(0, index));
}

/** The line of a check that found no event type the receiver acts on. */
const nothingActedOn = (types: string, expected: string): Omit<CheckResult, 'name'> => ({
  grade: 'skip',
  sent: `one event of each of ${types}`,
  received: 'each answered 2xx with ignored: true',
  expected,
  fix: 'the receiver acts on none of these event types, so nothing could be processed twice; give it a function for one of them to check it',
});

/** A check whose one delivery must be refused with 401 (spec 6.3.5). */
function refused(
  name: string,
  sent: string,
  expected: string,
  options: SendOptions,
  fix = VERIFY_FIX,
): readonly [string, Check] {
  const check: Check = async (ctx) => {
    const event = ctx.events.userCreated(name);
    const outcome = await send(ctx, event, options);
    const grade = outcome.status === 401 ? 'pass' : 'fail';
    const why = isSuccess(outcome)
      ? 'it was accepted: anyone could post forged or replayed events'
      : outcome.status !== undefined && outcome.status >= 500
        ? 'a 5xx makes the service retry a message that will never verify; bad input must not reach a crash'
        : outcome.status !== undefined
          ? 'the service only reads 401 as "rejected" (spec 6.3.5)'
          : 'the receiver did not answer';
    return {
      grade,
      sent: `${event.event} ${event.id}, ${sent}`,
      received: describeOutcome(outcome),
      expected: `401 (${expected})`,
      fix: grade === 'fail' ? `${why}; ${fix}` : undefined,
    };
  };
  return [name, check];
}

const validEvent: Check = async (ctx) => {
  const event = ctx.events.userCreated('valid');
  const outcome = await send(ctx, event);
  const base = {
    sent: `${event.event} ${event.id}, signed with the secret, t = now`,
    received: describeOutcome(outcome),
    expected: `2xx within ${ctx.fastMs} ms (spec 6: answer quickly, process asynchronously)`,
  };
  if (!isSuccess(outcome)) {
    return {
      ...base,
      grade: 'fail',
      fix:
        outcome.status === 401
          ? "a correctly signed event was refused: check the secret (the dashboard's, without surrounding whitespace) and that the raw body reaches verifyWebhook"
          : outcome.timedOut
            ? 'answer within the time-out: enqueue slow work in your function and answer 200 once the event is recorded'
            : 'answer 2xx to a verified event; any other answer makes the service retry it (spec 6.4)',
    };
  }
  if (outcome.ms > ctx.fastMs) {
    return { ...base, grade: 'warn', fix: 'answer before doing the work: enqueue the event and answer 200' };
  }
  return { ...base, grade: 'pass' };
};

const rawBytes: Check = async (ctx) => {
  const event = ctx.events.userCreated('raw-bytes');
  const outcome = await send(ctx, event, { serialise: (payload) => `${JSON.stringify(payload, null, 2)}\n` });
  return graded(
    isSuccess(outcome),
    {
      sent: `${event.event} ${event.id}, indented JSON with a trailing newline, signed as sent`,
      received: describeOutcome(outcome),
      expected: '2xx (spec 6.3.2: the signature covers the raw payload text, whatever its spacing)',
    },
    'verify the exact bytes received: a body parsed and serialised again is different text and its signature no longer matches (in Express use express.raw() on this route, not express.json())',
  );
};

const rotation: Check = async (ctx) => {
  const expected = '2xx for a message signed with either secret while rotating (spec 6.3.3)';
  if (ctx.secrets.length < 2) {
    return {
      grade: 'skip',
      sent: 'nothing: one secret given',
      received: '-',
      expected,
      fix: 'pass the next secret too (--next-secret) to check a rotation',
    };
  }
  const outcomes = [];
  for (const [index, secret] of ctx.secrets.entries()) {
    outcomes.push(await send(ctx, ctx.events.userCreated(`rotation-${index + 1}`), { secret }));
  }
  return graded(
    outcomes.every(isSuccess),
    {
      sent: `user.created signed with each of the ${ctx.secrets.length} secrets`,
      received: outcomes.map((o, i) => `secret ${i + 1}: ${describeOutcome(o)}`).join(', '),
      expected,
    },
    `while rotating, verify against both secrets: ${HANDLER} with secret: [newSecret, oldSecret]`,
  );
};

const duplicate: Check = async (ctx) => {
  const expected =
    '2xx both times, processed once: the second answered with duplicate: true (spec 6.4: events may be delivered more than once)';
  const found = await actedOn(ctx, 'duplicate');
  if ('ignoredAll' in found) return nothingActedOn(found.ignoredAll, expected);
  const { event, first } = found;
  const second = await send(ctx, event);
  return graded(
    isSuccess(first) && !saysDuplicate(first) && isSuccess(second) && saysDuplicate(second),
    {
      sent: `${event.event} ${event.id} twice, as a redelivery (same id and body, signed again)`,
      received: `first ${describeOutcome(first)}, second ${describeOutcome(second)}`,
      expected,
    },
    `build the receiver on ${HANDLER}: it claims each event id in its store (memoryWebhookStore for one process, PostgreSQL or Redis for several), runs your function once and answers a repeat 200 { "duplicate": true }`,
  );
};

const outOfOrder: Check = async (ctx) => {
  const later = ctx.events.payoutCompleted('order-completed');
  const earlier = ctx.events.payoutInitiated('order-initiated');
  const first = await send(ctx, later);
  const second = await send(ctx, earlier);
  return graded(
    isSuccess(first) && isSuccess(second),
    {
      sent: `transaction.payout_completed then transaction.payout_initiated of ${later.data.transactionId}`,
      received: `completed ${describeOutcome(first)}, initiated ${describeOutcome(second)}`,
      expected: '2xx for both: delivery order is not guaranteed (spec 6.4 retries reorder events)',
    },
    'accept events in any order: key work on transactionId, never move a transaction back to an earlier status, and read GET /v2/transactions/{id} when in doubt',
  );
};

const timeoutRetry: Check = async (ctx) => {
  const expected = `an answer within the ${ctx.timeoutMs} ms time-out; the retry 2xx and not processed again (spec 6.4)`;
  const found = await actedOn(ctx, 'timeout');
  if ('ignoredAll' in found) return nothingActedOn(found.ignoredAll, expected);
  const { event, first } = found;
  await sleep(ctx.retryDelayMs);
  const retry = await send(ctx, event);
  const received = `attempt 1 ${describeOutcome(first)}, retry ${describeOutcome(retry)}`;
  const sent = `${event.event} ${event.id} (given up at ${ctx.timeoutMs} ms if unanswered), then again as the service's retry ${ctx.retryDelayMs} ms later`;
  if (first.timedOut) {
    return {
      grade: 'fail',
      sent,
      received,
      expected,
      fix: `the service stopped waiting and will deliver again: answer within the time-out (enqueue slow work), and let ${HANDLER} recognise the retry by its event id`,
    };
  }
  return graded(
    isSuccess(first) && isSuccess(retry) && saysDuplicate(retry),
    { sent, received, expected },
    `a retry of an event already answered must be recognised by its id and answered 200 { "duplicate": true }, as ${HANDLER} does`,
  );
};

const rejectedThenRetried: Check = async (ctx) => {
  const event = actedEvent(ctx, 'rejected-retry');
  const broken = `t=${Math.floor(ctx.now() / 1000)},v1=${'0'.repeat(64)}`;
  const first = await send(ctx, event, { signature: broken });
  const retry = await send(ctx, event);
  return graded(
    !isSuccess(first) && isSuccess(retry) && !saysDuplicate(retry),
    {
      sent: `${event.event} ${event.id} with a wrong signature, then correctly signed`,
      received: `first ${describeOutcome(first)}, retry ${describeOutcome(retry)}`,
      expected:
        'the first refused (non-2xx), the signed retry processed: 2xx without duplicate: true (spec 6.4: a retry follows any non-2xx)',
    },
    `mark an event as processed only after it verified and its function succeeded, so a retry is processed: ${HANDLER} claims an event only once it verified, and releases the claim when your function throws`,
  );
};

/** The checks, in report order. */
export const CHECKS: readonly (readonly [string, Check])[] = [
  ['valid-event', validEvent],
  ['raw-bytes', rawBytes],
  refused(
    'tampered-body',
    'body changed after signing',
    'spec 6.3.3: the HMAC of the received body must match',
    { alter: (body) => body.replace('+919876543210', '+919876543211') },
  ),
  refused('wrong-secret', 'signed with another secret', "spec 6.3.3: signed with the partner's secret", {
    secret: 'whsec_not_the_receivers_secret',
  }),
  refused(
    'stale-timestamp',
    't = now - 600 s, signed correctly',
    'spec 6.3.4: t more than 300 s from now',
    { shift: -600 },
    'check the tolerance: verifyWebhook refuses a t more than 300 s from now, which stops replays of captured deliveries',
  ),
  refused(
    'future-timestamp',
    't = now + 600 s, signed correctly',
    'spec 6.3.4: the tolerance applies both ways',
    { shift: 600 },
    'check the tolerance in both directions (verifyWebhook does), and keep the server clock synchronised (NTP)',
  ),
  refused('missing-signature', 'no X-Service-Signature header', 'spec 6.3.1, 6.3.5', { signature: null }),
  refused(
    'malformed-signature',
    'X-Service-Signature "t=soon,v1=not-hex"',
    'spec 6.3.1: t=<unix seconds>,v1=<hex>',
    { signature: 't=soon,v1=not-hex' },
  ),
  ['rotation', rotation],
  ['duplicate-delivery', duplicate],
  ['out-of-order', outOfOrder],
  ['timeout-retry', timeoutRetry],
  ['rejected-then-retried', rejectedThenRetried],
];
