/**
 * The recorder: every input a mock service takes, in the order it takes them, as the steps of a replay bundle
 * (mock/engine/bundle.ts). It subscribes to the service's stream for requests (mock/engine/stream.ts), wraps the
 * helpers and the public clock, and listens at the service's tap (mock/engine/taps.ts) for what comes from the
 * wall clock and the network: the ticks of a real-time clock and webhook receivers' answers. Everything else the mock does follows from these
 * and the seed, so a bundle rebuilds the run (mock/observe/replay.ts).
 *
 * Recording is on for every service and bounded: past {@link RECORDING_LIMIT} steps or its byte budget
 * (`RECORDING_BUDGET_BYTES` unless set otherwise) it lets go of its oldest steps, and `bundle()` marks the window
 * it holds (a replay refuses such a bundle), so a shared sandbox running for weeks never grows without end.
 */
import { HELPER_CONTRACT, type HelperSpec } from '../contract/helpers.js';
import {
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  type BundleRequestAnswer,
  type BundleStep,
  type BundleWebhook,
  type MockBundle,
} from '../engine/bundle.js';
import { type Clock, nothingDue } from '../engine/clock.js';
import type { Exchange } from '../engine/exchange.js';
import { HOP_BY_HOP_HEADERS } from '../engine/headers.js';
import type { ServiceInternals } from '../engine/internals.js';
import { isNetworkError } from '../engine/respond.js';
import type { DeliveryOutcome, ServiceTap } from '../engine/taps.js';
import { createWindow } from '../engine/window.js';
import { defined, pick } from '../state/records.js';

/** The most steps one service keeps; past it, the oldest are let go and `bundle()` marks its window. */
export const RECORDING_LIMIT = 100_000;

/** Headers the transport sets, not the caller: they are left out of a recorded request. */
const TRANSPORT_HEADERS = new Set([...HOP_BY_HOP_HEADERS, 'content-length']);

type Callable = (...args: unknown[]) => unknown;

/** How a replay answers the webhook attempts it causes (mock/observe/replay.ts installs one). */
export interface AttemptAnswerer {
  attempt(
    eventId: string,
    wallSeconds: number,
  ): { timestamp: number; answer: () => Promise<DeliveryOutcome> };
  readonly replaying: boolean;
}

/** The recorder of one service. */
export type Recorder = ReturnType<typeof createRecorder>;

function jsonArgs(name: string, spec: HelperSpec, called: readonly unknown[]): BundleStep {
  const given = [...called];
  while (given.length > 0 && given.at(-1) === undefined) given.pop();
  // A function (`webhooks.useFetch`) cannot be written down; a replay answers webhooks from the bundle anyway.
  if (spec.http === false) return { type: 'helper', name, args: [] };
  const undefinedArgs = given.flatMap((arg, i) => (arg === undefined ? [i] : []));
  let args: unknown[] = [];
  try {
    args = JSON.parse(JSON.stringify(given)) as unknown[];
  } catch {
    // Not JSON (a cycle, a BigInt): recorded without its arguments.
  }
  return { type: 'helper', name, args, ...(undefinedArgs.length > 0 && { undefinedArgs }) };
}

/**
 * FNV-1a over 32 bits of the `length` units `unit(i)` gives (a text's UTF-16 code units, or bytes): a digest that
 * tells two answers apart, not a security measure.
 */
function digestOf(length: number, unit: (i: number) => number): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < length; i++) hash = Math.imul(hash ^ unit(i), 0x01000193);
  return `fnv1a32:${(hash >>> 0).toString(16).padStart(8, '0')}`;
}

type RequestStep = Extract<BundleStep, { type: 'request' }>;

/** The last answer a recorder noted from a text, and that text: an equal answer shares it. */
interface LastNoted {
  text: string;
  answer: BundleRequestAnswer;
}

/**
 * Notes on a request step what the service answered (`exchange.answer`): its status and a digest of its body. A
 * JSON answer's text is at hand, so it is noted at once; any other body is read from a copy, so the caller
 * still reads the answer, and noted when read. `then` is given the answer once noted.
 */
function noteAnswer(
  lastNoted: LastNoted,
  step: RequestStep,
  exchange: Exchange,
  then: (answer: BundleRequestAnswer) => void = () => {},
): void {
  const answered = exchange.answer;
  if (!answered) return;
  const { response } = answered;
  const note = (answer: BundleRequestAnswer) => {
    step.answer = answer;
    then(answer);
  };
  // A `HEAD` answer sends no body, whatever text its `GET` had. The text, when the pipeline kept it, spares
  // reading the body (and a server adapter's light response stays light).
  const text = exchange.method === 'HEAD' ? '' : (answered.text ?? (response.body === null ? '' : undefined));
  if (isNetworkError(response)) note({ status: 0 });
  else if (text !== undefined) {
    // An answer with the last one's status and text (a client polling, a load test) shares its note: comparing
    // two strings is native, the digest a loop over every character.
    if (text !== lastNoted.text || response.status !== lastNoted.answer.status) {
      const digest = digestOf(text.length, (i) => text.charCodeAt(i));
      Object.assign(lastNoted, { text, answer: { status: response.status, digest } });
    }
    note(lastNoted.answer);
  } else
    response
      .clone()
      .arrayBuffer()
      .then((buffer: ArrayBuffer) => {
        const bytes = new Uint8Array(buffer);
        note({ status: response.status, digest: digestOf(bytes.length, (i) => bytes[i] ?? 0) });
      })
      .catch(() => note({ status: response.status }));
}

/**
 * `headers`, or `last` when it holds the same: consecutive requests mostly carry the same headers and get the
 * same answer (a client polling, a load test), and a step kept is an object the garbage collector copies and
 * marks for as long as the recording keeps it, so a long run keeps one copy. Steps are read, never changed.
 */
function sharedHeaders(
  last: Record<string, string> | undefined,
  headers: Record<string, string>,
): Record<string, string> {
  if (last === undefined) return headers;
  let count = 0;
  for (const name in headers) {
    if (last[name] !== headers[name]) return headers;
    count += 1;
  }
  for (const _ in last) count -= 1;
  return count === 0 ? last : headers;
}

/** The body as a step keeps it: text when it is UTF-8, else base64. */
function bodyOf(exchange: Exchange, bytes: ArrayBuffer): { body?: string; bodyBase64?: string } {
  if (bytes.byteLength === 0) return {};
  return exchange.utf8 ? { body: exchange.text } : { bodyBase64: Buffer.from(bytes).toString('base64') };
}

/** The request as a step records it: the caller's headers, the path and query under the base URL. */
function requestStep(exchange: Exchange, last: Record<string, string> | undefined): RequestStep {
  const path = exchange.url.slice(exchange.sentTo.length) || '/';
  const headers: Record<string, string> = {};
  for (const [name, value] of exchange.request.headers)
    if (!TRANSPORT_HEADERS.has(name)) headers[name] = value;
  return { type: 'request', method: exchange.method, path, headers: sharedHeaders(last, headers) };
}

/** What a step counts for in the byte budget: about its JSON's length, a body counted when it is read. */
function stepBytes(step: BundleStep): number {
  if (step.type === 'clock') return 80;
  if (step.type === 'helper') return 80 + step.name.length + JSON.stringify(step.args).length;
  let bytes = 160 + step.method.length + step.path.length;
  for (const name in step.headers) bytes += name.length + (step.headers[name]?.length ?? 0) + 6;
  return bytes;
}

/** A clock step's `wait: false`, kept only when given (recorded from the clock's options, replayed to them). */
export const noWait = (options?: { wait?: boolean }) => (options?.wait === false ? { wait: false } : {});

/**
 * A delivery outcome as a bundle keeps it: `ok` and the fields it has (none set to `undefined`); a replay gives
 * the recorded ones back.
 */
export const outcomeFields = (outcome: DeliveryOutcome): DeliveryOutcome =>
  defined(pick(outcome, ['ok', 'status', 'responseBody', 'error', 'timedOut']));

/** What a webhook attempt and its answer count for. */
const WEBHOOK_BYTES = 240;

/** Creates the recorder of a service and installs its tap; `limits`: the most steps and bytes it keeps. */
export function createRecorder(
  mock: ServiceInternals,
  limits = { steps: RECORDING_LIMIT, bytes: mock.options.budgets.recordingBytes },
) {
  const lastNoted: LastNoted = { text: '', answer: { status: 0 } };
  let webhooks: BundleWebhook[] = [];
  let webhookHead = 0;
  /** The steps still running, by index. */
  const running = new Set<number>();
  // The webhooks sent before the oldest step kept go with it, and so does a step let go still running.
  const letGo = (start: number) => {
    for (const index of running) if (index < start) running.delete(index);
    const from = webhookHead;
    while ((webhooks[webhookHead]?.sentAtStep ?? start) < start) webhookHead += 1;
    const gone = webhookHead - from;
    // Cut once half went, as the window does, so a long run of webhooks costs the same at any size.
    if (webhookHead * 2 >= webhooks.length) {
      webhooks = webhooks.slice(webhookHead);
      webhookHead = 0;
    }
    return gone * WEBHOOK_BYTES;
  };
  const steps = createWindow<BundleStep>({ limit: limits.steps, budgetBytes: limits.bytes, letGo });
  /** Counts webhook sends and answers, so two ticks merge only when nothing came between them. */
  let events = 0;
  let eventsAtLastStep = 0;
  /** Answers kept so far: the next one's place in the order answers came. */
  let landed = 0;
  let answerer: AttemptAnswerer | undefined;

  const push = (step: BundleStep): number => {
    eventsAtLastStep = events;
    const index = steps.push(step, stepBytes(step));
    running.add(index);
    return index;
  };

  const run = <T>(step: BundleStep, fn: () => T): T => {
    const index = push(step);
    const end = () => running.delete(index);
    let result: T;
    try {
      result = fn();
    } catch (error) {
      end();
      throw error;
    }
    if (result instanceof Promise) result.then(end, end);
    else end();
    return result;
  };

  // Each request is a step from the moment it arrives until it is answered; its body is kept once read.
  let lastHeaders: Record<string, string> | undefined;
  mock.stream.subscribe((record) => {
    if (record.type === 'transition' || !record.exchange.recorded) return;
    const { exchange } = record;
    if (record.type === 'received') {
      const step = requestStep(exchange, lastHeaders);
      lastHeaders = step.headers;
      const index = push(step);
      exchange.recording = { step, index };
      if (exchange.hasBody)
        // Registered before dispatch awaits the same read, so the step is whole before the service runs.
        exchange.bytes().then(
          (bytes) => {
            const body = bodyOf(exchange, bytes);
            Object.assign(step, body);
            steps.count(index, (body.body ?? body.bodyBase64 ?? '').length);
          },
          () => {},
        );
      return;
    }
    const opened = exchange.recording;
    if (!opened) return;
    exchange.recording = undefined;
    noteAnswer(lastNoted, opened.step, exchange);
    running.delete(opened.index);
  });

  const tick = (ms: number, move: () => Promise<unknown>): Promise<unknown> => {
    const last = steps.at(steps.total - 1);
    const lastDone = !running.has(steps.total - 1);
    // An idle real-time clock ticks ten times a second: consecutive ticks with nothing between are one move.
    if (last?.type === 'clock' && last.action === 'tick' && lastDone && events === eventsAtLastStep) {
      last.duration = Number(last.duration ?? 0) + ms;
      return move();
    }
    return run({ type: 'clock', action: 'tick', duration: ms, wait: false }, move);
  };

  const attempt: ServiceTap['attempt'] = (eventId, wallSeconds) => {
    const replayed = answerer?.attempt(eventId, wallSeconds);
    const timestamp = replayed?.timestamp ?? wallSeconds;
    const entry: BundleWebhook = { eventId, timestamp, sentAtStep: steps.total };
    webhooks.push(entry);
    steps.count(undefined, WEBHOOK_BYTES);
    events += 1;
    return {
      timestamp,
      answer: async (post) => {
        const outcome = await (replayed ? replayed.answer() : post());
        events += 1;
        const count = steps.total;
        const during = count > 0 && running.has(count - 1);
        entry.answer = { atStep: count, during, landed: landed++, ...outcomeFields(outcome) };
        return outcome;
      },
    };
  };

  const recorder = {
    /** Runs `fn` as one recorded step. */
    run,
    /** Wraps every helper (in place) so each call is a step; returns the unwrapped ones by contract name. */
    wrapHelpers(helpers: object): Map<string, Callable> {
      const originals = new Map<string, Callable>();
      const holders = helpers as Record<string, unknown>;
      for (const [name, spec] of Object.entries(HELPER_CONTRACT) as [string, HelperSpec][]) {
        const [group, action] = name.includes('.') ? name.split('.') : ['', name];
        const holder = group ? holders[group] : holders;
        if (typeof holder !== 'object' || holder === null || !action) continue;
        const slot = holder as Record<string, unknown>;
        const fn = slot[action];
        if (typeof fn !== 'function') continue;
        const original = (fn as Callable).bind(holder);
        originals.set(name, original);
        // Reading the journal or the bundle is not an input: it changes nothing and is not journalled.
        if (name === 'journal' || name === 'bundle') continue;
        slot[action] = (...args: unknown[]) => run(jsonArgs(name, spec, args), () => original(...args));
      }
      return originals;
    },
    /** The public clock, recording `advance` and `runDue`. */
    wrapClock(clock: Clock): Clock {
      return {
        now: () => clock.now(),
        nowIso: () => clock.nowIso(),
        advance: (duration, options) =>
          run({ type: 'clock', action: 'advance', duration, ...noWait(options) }, () =>
            clock.advance(duration, options),
          ),
        // A run with nothing to do changes nothing a replay could miss: it is not a step.
        runDue: (options) =>
          nothingDue(mock)
            ? clock.runDue(options)
            : run({ type: 'clock', action: 'runDue', ...noWait(options) }, () => clock.runDue(options)),
        startRealtime: (options) => clock.startRealtime(options),
        stop: () => clock.stop(),
        get realtime() {
          return clock.realtime;
        },
        registerTask: (kind, task) => clock.registerTask(kind, task),
      };
    },
    /** Notes on a request step what the service answered; `then` is given the answer once noted. */
    noteAnswer(step: RequestStep, exchange: Exchange, then?: (answer: BundleRequestAnswer) => void) {
      noteAnswer(lastNoted, step, exchange, then);
    },
    /** Answers webhook attempts from a replay from now on. */
    play(next: AttemptAnswerer) {
      answerer = next;
    },
    /** Steps recorded so far. */
    get count() {
      return steps.total;
    },
    /** The bundle of everything recorded. */
    bundle(): MockBundle {
      const { options } = mock;
      const past =
        steps.overrun === 'limit'
          ? `past its limit of ${limits.steps} steps`
          : `past its budget of ${limits.bytes} bytes`;
      const window =
        steps.overrun === undefined
          ? undefined
          : { startsAtStep: steps.dropped, reason: `the recording let go of the steps before it, ${past}` };
      const bundle: MockBundle = {
        format: BUNDLE_FORMAT,
        version: BUNDLE_VERSION,
        options: {
          baseUrl: options.baseUrl,
          seed: options.seed,
          startTime: new Date(options.startMs).toISOString(),
          account: JSON.parse(JSON.stringify(options.account)) as Record<string, unknown>,
          webhookWaitMs: options.webhookWaitMs,
          ...(options.chaos === undefined ? {} : { chaos: structuredClone(options.chaos) }),
        },
        steps: [...steps.items()],
        webhooks: webhooks.slice(webhookHead).filter((w) => !window || w.sentAtStep >= window.startsAtStep),
      };
      if (window) bundle.window = window;
      return structuredClone(bundle);
    },
  };
  mock.tap = {
    tick,
    attempt,
    get replaying() {
      return answerer?.replaying ?? false;
    },
  };
  mock.recording = recorder;
  return recorder;
}
