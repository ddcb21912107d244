import { SIGNATURE_HEADER, type VerifyWebhookOptions, type WebhookSecret } from '../common.js';
import { WebhookVerificationError } from '../errors.js';
import {
  isKnownWebhookEvent,
  type UnknownWebhookEvent,
  type WebhookEvent,
  type WebhookEventOf,
  type WebhookEventType,
} from '../events.js';
import { verifyWebhookAsync } from '../verify-async.js';
import {
  BODY_PROBLEMS,
  type BodyProblem,
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_MAX_BODY,
  readChunks,
} from './body.js';
import { limitedLog, type WebhookLogger, type WebhookLogLevel, type WebhookLogLimit } from './log.js';
import { memoryWebhookStore, type WebhookStore } from './store.js';

/** What the handler hands each event function besides the event. */
export interface DeliveryContext<Within = never> {
  /** Aborts when the claim is lost, or its lease is down to a sixth unrenewed (the store failed or hangs): stop. */
  readonly signal: AbortSignal;
  /**
   * Marks the event done now, inside the function's own atomic step: pass the client of your open PostgreSQL
   * transaction (the mark commits or rolls back with your writes), or Redis commands to run in the same script.
   * False when the claim was lost: roll back. Without a call the handler marks the event after the function.
   */
  complete(within: Within): Promise<boolean>;
}

/** The partner's function for one event type. It may throw: the claim is released and the service retries. */
export type WebhookEventHandler<E, Within = never> = (event: E, context: DeliveryContext<Within>) => unknown;

/** The functions per known event type; an event type without one is acknowledged and not claimed. */
export type WebhookEventHandlers<Within = never> = {
  [T in WebhookEventType]?: WebhookEventHandler<WebhookEventOf<T>, Within>;
};

/**
 * What became of one delivery: `processed` (the function ran and finished), `duplicate` (done before),
 * `in_progress` (another delivery holds the claim), `failed` (the function threw, or the claim was lost),
 * `ignored` (no function for this type), `rejected` (not a valid webhook), `unavailable` (the store failed).
 */
export type DeliveryOutcome =
  | 'processed'
  | 'duplicate'
  | 'in_progress'
  | 'failed'
  | 'ignored'
  | 'rejected'
  | 'unavailable';

/**
 * One delivery as a tracer sees it (the `inr-payouts/otel` entry makes spans of them): the event once it is
 * verified, the partner's function run inside it, and the answer.
 */
export interface DeliveryTrace {
  /** Called once the signature holds. */
  event(event: WebhookEvent): void;
  /** Runs the partner's function, inside the trace's context. */
  run<T>(fn: () => Promise<T>): Promise<T>;
  /** Called once with the answer's status and the outcome; `error` when the function threw. */
  end(status: number, outcome: DeliveryOutcome, error?: unknown): void;
}

/**
 * Options of {@link createWebhookHandler}.
 *
 * @example
 * ```ts
 * import type { WebhookHandlerOptions } from 'inr-payouts/webhooks/handler';
 *
 * const options: WebhookHandlerOptions = {
 *   secret: ['whsec_new', 'whsec_old'],
 *   on: { 'transaction.payout_failed': async (event) => console.log(event.data.reason) },
 *   leaseMs: 20_000,
 * };
 * ```
 */
export interface WebhookHandlerOptions<Within = never> extends Omit<VerifyWebhookOptions, 'now'> {
  /** The current time for the signature's 300 s window, read per delivery. Default: the system clock. */
  now?: () => Date | number;
  /** The signing secret, or several while rotating. */
  secret: WebhookSecret;
  /** One function per event type the receiver acts on. */
  on: WebhookEventHandlers<Within>;
  /** For event types this version does not know (the service added them later). Default: acknowledged. */
  onUnknown?: WebhookEventHandler<UnknownWebhookEvent, Within>;
  /** Where event IDs are claimed; share one across replicas. Default: {@link memoryWebhookStore}. */
  store?: WebhookStore<Within>;
  /**
   * How long a claim lasts unless renewed, in ms: after a crash the event is free again this long after the
   * last renewal. Renewed every third of it while the function runs; `context.signal` aborts when a sixth of it is
   * left unrenewed. Default 10,000.
   */
  leaseMs?: number;
  /** Largest accepted body, in bytes; a larger one answers 413. Default 1 MiB. */
  maxBodyBytes?: number;
  /** How long the body may take, in ms; a slower one answers 408 (one cut off, 400). Default 30,000 (spec 6.4). */
  bodyTimeoutMs?: number;
  /** Told of a thrown function, a failed store, a lost claim, each time. Default: `logger.error`, within `logLimit`. */
  onError?: (error: unknown, event: WebhookEvent | undefined) => void;
  /**
   * Where lines go. Default `console`. A rejected request (a bad signature, a body too large, cut off or too slow)
   * is one `warn` line without a stack, so a flood of forged requests writes at most `logLimit`.
   *
   * @example
   * ```ts
   * import { createWebhookHandler } from 'inr-payouts/webhooks/handler';
   *
   * const lines: string[] = [];
   * const handle = createWebhookHandler({
   *   secret: 'whsec_example',
   *   on: {},
   *   logger: { warn: (line) => lines.push(line), error: (line) => lines.push(line) }, // or pino, winston
   *   logLimit: { lines: 2, perMs: 60_000 },
   * });
   * const forged = () => handle(new Request('https://partner.example/webhooks',
   *   { method: 'POST', body: '{}', headers: { 'x-service-signature': 't=1,v1=00' } }));
   * for (let i = 0; i < 100; i++) await forged(); // 401 each
   * console.log(lines.length); // 2, then one line counting the other 98 when the minute ends
   * ```
   */
  logger?: WebhookLogger;
  /** `warn` (default): rejected requests and errors; `error`: errors only; `off`: no line at all. */
  logLevel?: WebhookLogLevel;
  /** At most `lines` lines of each level per `perMs`, then one counting the rest. Default 10 a minute. */
  logLimit?: WebhookLogLimit;
  /** Starts a {@link DeliveryTrace} per request (`traceWebhookDeliveries` of `inr-payouts/otel`). */
  trace?: (request: Request) => DeliveryTrace;
}

const DEFAULT_LEASE_MS = 10_000;

const answer = (status: number, body: object, headers?: Record<string, string>) =>
  Response.json(body, headers === undefined ? { status } : { status, headers });

/**
 * Handles the service's webhooks exactly once across replicas: returns a fetch-style `(request) => Response` for
 * Next.js route handlers, Hono, Bun, Deno and Workers (`toNodeHandler` for node:http, Express and Fastify).
 *
 * Per delivery, in order (docs/webhooks-in-production.md):
 * 1. verify the raw body (spec 6.3): a bad or missing signature answers 401 and runs nothing;
 * 2. claim the event ID in the store with a lease: a finished event answers 200 at once; one another delivery is
 *    running answers 409 (any non-2xx makes the service retry, spec 6.4) with `Retry-After`, and never runs the
 *    function a second time; a failing store answers 503;
 * 3. run the event type's function, renewing the lease every third of `leaseMs` while it runs;
 * 4. mark the event done (or let the function mark it inside its own transaction, `context.complete`) and answer
 *    200; if the function throws, release the claim and answer 500, so the retry runs it again. A replica that
 *    dies mid-function stops renewing, and its lease expires.
 *
 * An event type with no function is acknowledged (200) without a claim.
 *
 * @example
 * ```ts
 * import { createWebhookHandler } from 'inr-payouts/webhooks/handler';
 * import { signWebhook } from 'inr-payouts/webhooks';
 *
 * const handle = createWebhookHandler({
 *   secret: 'whsec_example',
 *   on: { 'user.created': async (event) => console.log('welcome', event.data.userId) },
 * });
 * const { body, signature } = signWebhook({
 *   payload: { id: 'evt_1', event: 'user.created', timestamp: '2025-01-01T00:00:00.000Z', partnerId: 'p_1',
 *     data: { userId: 'usr_1', createdAt: '2025-01-01T00:00:00.000Z' } },
 *   secret: 'whsec_example',
 * });
 * const deliver = () => handle(new Request('https://partner.example/webhooks',
 *   { method: 'POST', body, headers: { 'x-service-signature': signature } }));
 * console.log((await deliver()).status); // 200, after "welcome usr_1"
 * console.log((await deliver()).status); // 200: a duplicate, not run again
 * ```
 */
export function createWebhookHandler<Within = never>(
  options: WebhookHandlerOptions<Within>,
): (request: Request) => Promise<Response> {
  const {
    secret,
    on,
    onUnknown,
    leaseMs = DEFAULT_LEASE_MS,
    maxBodyBytes = DEFAULT_MAX_BODY,
    bodyTimeoutMs = DEFAULT_BODY_TIMEOUT_MS,
  } = options;
  if (typeof on !== 'object' || on === null) {
    throw new TypeError(
      'createWebhookHandler needs `on`: one function per event type, { "user.created": fn }.',
    );
  }
  if (!(leaseMs >= 100)) throw new RangeError('createWebhookHandler: leaseMs must be at least 100.');
  const store: WebhookStore<Within> = options.store ?? memoryWebhookStore();
  const log = limitedLog(options.logger, options.logLevel, options.logLimit);
  // An Error goes as the detail, whose printing (console's, a logger's) shows its message and stack: the line
  // names the event and repeats nothing of it.
  const report =
    options.onError ??
    ((error: unknown, event: WebhookEvent | undefined) => {
      const about = event === undefined ? 'failed' : `${event.id} (${event.event}) failed`;
      if (error instanceof Error) log('error', `${about}:`, error);
      else log('error', `${about}: ${String(error)}`);
    });
  // A request's own fault: one line, no stack, nothing to the partner's onError.
  const reject = (status: number, reason: string, why: string): [Response, DeliveryOutcome] => {
    log('warn', `answered ${status} ${reason}: ${why}`);
    return [answer(status, { error: reason }), 'rejected'];
  };

  async function handle(
    request: Request,
    trace: DeliveryTrace | undefined,
  ): Promise<[Response, DeliveryOutcome, unknown?]> {
    if (request.method !== 'POST')
      return [answer(405, { error: 'method_not_allowed' }, { allow: 'POST' }), 'rejected'];
    const body = await readBody(request, maxBodyBytes, bodyTimeoutMs);
    if (typeof body === 'string') return reject(BODY_PROBLEMS[body].status, body, BODY_PROBLEMS[body].why);
    let event: WebhookEvent;
    try {
      event = await verifyWebhookAsync(body, request.headers.get(SIGNATURE_HEADER), secret, {
        toleranceSeconds: options.toleranceSeconds,
        now: options.now?.(),
      });
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      // No secret configured is the receiver's failure, not the request's: it goes where errors go.
      if (error.reason === 'missing_secret') report(error, undefined);
      else return reject(401, error.reason, error.message); // spec 6.3.5
      return [answer(401, { error: error.reason }), 'rejected'];
    }
    trace?.event(event);
    const fn = (isKnownWebhookEvent(event) ? on[event.event] : onUnknown) as
      | WebhookEventHandler<WebhookEvent, Within>
      | undefined;
    if (fn === undefined) return [answer(200, { received: true, ignored: true }), 'ignored'];
    if (typeof event.id !== 'string' || event.id === '') {
      return [answer(400, { error: 'missing_event_id' }), 'rejected'];
    }

    const token = crypto.randomUUID();
    const claim = await store.claim(event.id, token, leaseMs).catch((error: unknown) => {
      report(error, event);
      return undefined;
    });
    if (claim === undefined) return [answer(503, { error: 'store_unavailable' }), 'unavailable'];
    if (claim.state === 'done') return [answer(200, { received: true, duplicate: true }), 'duplicate'];
    if (claim.state === 'busy') {
      const retryAfter = String(Math.max(1, Math.ceil(claim.retryAfterMs / 1000)));
      return [answer(409, { error: 'in_progress' }, { 'retry-after': retryAfter }), 'in_progress'];
    }

    // Timed from the claim's answer: a store that answers late (paused, failing over) ran the claim late too.
    // Renew and complete check the token, so a lease that ran out meanwhile is found out, never run twice at once.
    const lease = keepLease(store, event.id, token, leaseMs, Date.now());
    const id = event.id;
    // What the function's own `complete` answered, if it called it.
    let marked: boolean | undefined;
    const complete = async (within: Within) => {
      marked = await store.complete(id, token, within);
      return marked;
    };
    try {
      const run = async () => fn(event, { signal: lease.signal, complete });
      await (trace ? trace.run(run) : run());
    } catch (error) {
      lease.stop();
      report(error, event);
      await store.release(event.id, token).catch((cause: unknown) => report(cause, event));
      return [answer(500, { error: 'handler_failed' }), 'failed', error];
    }
    lease.stop();
    const done =
      marked ??
      (await store.complete(event.id, token).catch((error: unknown) => {
        report(error, event);
        return false;
      }));
    if (!done) {
      // The lease ran out under us: whoever holds the event now finishes it; the service retries meanwhile.
      report(new Error(`Lost the claim on ${event.id} before marking it done; raise leaseMs.`), event);
      return [answer(409, { error: 'claim_lost' }), 'failed'];
    }
    return [answer(200, { received: true }), 'processed'];
  }

  return async (request) => {
    let trace: DeliveryTrace | undefined;
    try {
      trace = options.trace?.(request);
      const [response, outcome, error] = await handle(request, trace);
      trace?.end(response.status, outcome, error);
      return response;
    } catch (error) {
      report(error, undefined);
      trace?.end(500, 'failed', error);
      return answer(500, { error: 'internal_error' });
    }
  };
}

async function readBody(request: Request, max: number, timeoutMs: number): Promise<Uint8Array | BodyProblem> {
  // A declared length past `max` is refused before reading a byte.
  if (Number(request.headers.get('content-length') ?? 0) > max) return 'body_too_large';
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const body = await readChunks({ next: () => reader.read() }, max, timeoutMs);
  if (typeof body === 'string') reader.cancel().catch(() => undefined);
  return body;
}

/**
 * Renews the claim every third of the lease. It is held until `leaseMs` after the last answered renewal was sent;
 * `signal` aborts a sixth before that (one failed renewal is survived; the function gets the sixth to stop).
 */
function keepLease(store: WebhookStore, eventId: string, token: string, leaseMs: number, claimedAt: number) {
  const controller = new AbortController();
  let heldUntil = claimedAt + leaseMs;
  const runOut = () =>
    setTimeout(
      () =>
        lose('no renewal answered in time (the store failed or hung: give its pool room, or raise leaseMs)'),
      // Never negative: a renewal answered late, or a blocked event loop, leaves the time already spent.
      Math.max(0, heldUntil - leaseMs / 6 - Date.now()),
    );
  let deadline = runOut();
  const renew = () => {
    const sent = Date.now();
    // Through a promise, so that a store that throws at once is a failed renewal and not a crash in a timer.
    Promise.resolve()
      .then(() => store.renew(eventId, token, leaseMs))
      .then(
        (held) => {
          if (controller.signal.aborted) return;
          if (!held) return lose('another delivery took it over');
          if (sent + leaseMs <= heldUntil) return;
          heldUntil = sent + leaseMs;
          clearTimeout(deadline);
          deadline = runOut();
        },
        () => undefined, // a failed renewal: the next one may answer before the lease runs out
      );
  };
  const timer = setInterval(renew, leaseMs / 3);
  const stop = () => {
    clearInterval(timer);
    clearTimeout(deadline);
  };
  const lose = (why: string) => {
    stop();
    controller.abort(new Error(`The claim on webhook event ${eventId} was lost: ${why}.`));
  };
  return { signal: controller.signal, stop };
}
