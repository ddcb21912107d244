/**
 * Replaying a bundle: each step is run again, one after another and awaited, through the same doors it came
 * in by (the dispatch, the helpers, the clock), so the service records it again and journals it as the
 * recording did. Webhook receivers are not called: each attempt is signed with the second the recording signed
 * it with and answered with the recorded answer, given back at the point of the run where it came (during the
 * step that was running, or between two steps). Requests the recording sent concurrently are replayed one after
 * another in the order they came in.
 */
import type { BundleAnswer, BundleRequestAnswer, BundleStep, MockBundle } from '../engine/bundle.js';
import type { Clock } from '../engine/clock.js';
import { asDuration } from '../engine/duration.js';
import type { Exchange } from '../engine/exchange.js';
import type { DeliveryOutcome } from '../engine/taps.js';
import { type AttemptAnswerer, noWait, outcomeFields, type Recorder } from './recorder.js';

/** What a replay did. */
export interface ReplaySummary {
  /** Steps run. */
  steps: number;
  /** Webhook attempts answered from the bundle. */
  webhooks: number;
  /**
   * Where the replay did not meet what the recording met (a request answered with another status or body, a
   * webhook attempt of another event than recorded): empty for a bundle this version of the mock recorded and
   * nobody edited. `inr-payouts-mock --strict-replay` stops with an error when it is not.
   */
  diverged: string[];
}

/** What a replay needs of the service: its recorder and its doors without the recording. */
export interface ReplayTarget {
  baseUrl: string;
  recorder: Recorder;
  /** The service's dispatch, unrecorded, to the request's whole exchange. */
  dispatch(request: Request): Promise<Exchange | undefined>;
  helper(name: string): ((...args: unknown[]) => unknown) | undefined;
  clock: Clock;
}

type RequestStep = Extract<BundleStep, { type: 'request' }>;

const NOT_SENT = 'not sent: this service replays a bundle and sends no webhooks past it';

/** Where the replay's answer differs from the recording's, in words; undefined where it does not. */
function answerDiverged(index: number, step: RequestStep, replayed: BundleRequestAnswer): string | undefined {
  const recorded = step.answer;
  if (!recorded) return undefined;
  const what = `step ${index} (${step.method} ${step.path})`;
  if (recorded.status !== replayed.status)
    return `${what} answered ${replayed.status}, the recording's ${recorded.status}`;
  if (recorded.digest !== undefined && recorded.digest !== replayed.digest)
    return `${what} answered ${replayed.status} with another body than the recording's`;
  return undefined;
}

function execute(target: ReplayTarget, index: number, step: BundleStep, diverged: string[]): unknown {
  if (step.type === 'request') {
    // Recorded afresh with the replay's own answer, compared with the one the bundle holds.
    const { answer: _recorded, ...sent } = step;
    const again: RequestStep = sent;
    return target.recorder.run(again, async () => {
      const body =
        step.bodyBase64 !== undefined ? Buffer.from(step.bodyBase64, 'base64') : (step.body ?? undefined);
      const exchange = await target.dispatch(
        new Request(`${target.baseUrl}${step.path}`, { method: step.method, headers: step.headers, body }),
      );
      if (exchange) {
        target.recorder.noteAnswer(again, exchange, (answer) => {
          const difference = answerDiverged(index, step, answer);
          if (difference) diverged.push(difference);
        });
      }
      return exchange?.answer?.response;
    });
  }
  return target.recorder.run(step, () => {
    if (step.type === 'helper') {
      const fn = target.helper(step.name);
      if (!fn) throw new Error(`The bundle calls helpers.${step.name}, which this mock does not have`);
      const args = [...step.args];
      for (const index of step.undefinedArgs ?? []) args[index] = undefined;
      return fn(...args);
    }
    if (step.action === 'runDue') return target.clock.runDue(noWait(step));
    return target.clock.advance(asDuration(step.duration ?? 0), noWait(step));
  });
}

/** Runs a bundle's steps against a fresh service; resolves when every step has run. */
export async function replayBundle(target: ReplayTarget, bundle: MockBundle): Promise<ReplaySummary> {
  const diverged: string[] = [];
  let count = 0;
  let phase: 'during' | 'after' = 'after';
  let finished = false;
  let next = 0;
  const held: { answer: BundleAnswer; resolve: (outcome: DeliveryOutcome) => void }[] = [];
  /** Answers given back so far that kept their place in the order they came. */
  let landed = 0;
  // The recording got this answer when `atStep` steps had started, during the last of them or after it, and
  // after the answers placed before it.
  const due = (answer: BundleAnswer) =>
    (count > answer.atStep || (count === answer.atStep && (answer.during || phase === 'after'))) &&
    answer.landed === landed;
  const give = (answer: BundleAnswer): DeliveryOutcome => {
    landed += 1;
    return outcomeFields(answer);
  };
  // Held answers now due go back one at a time, each landing (its attempt noted, a retry scheduled) before the
  // next is given, as they came in the recording; one loop at a time, so two cannot interleave.
  let releasing: Promise<void> | undefined;
  const giveBackDue = async () => {
    for (;;) {
      const index = held.findIndex((item) => due(item.answer));
      const [item] = index < 0 ? [] : held.splice(index, 1);
      if (!item) return;
      item.resolve(give(item.answer));
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const release = (): Promise<void> =>
    (releasing ??= giveBackDue().finally(() => {
      releasing = undefined;
    }));
  const settle = async () => {
    while (releasing || held.some((item) => due(item.answer))) await release();
  };
  const answerer: AttemptAnswerer = {
    get replaying() {
      return !finished;
    },
    attempt(eventId, wallSeconds) {
      if (finished) return { timestamp: wallSeconds, answer: async () => ({ ok: false, error: NOT_SENT }) };
      const recorded = bundle.webhooks[next];
      next += 1;
      if (!recorded || recorded.eventId !== eventId) {
        diverged.push(
          `webhook attempt ${next} is of ${eventId}, the recording's was of ${recorded?.eventId ?? 'nothing'}`,
        );
      }
      const answer = recorded?.answer;
      return {
        timestamp: recorded?.timestamp ?? wallSeconds,
        // No answer recorded: the receiver had not answered when the bundle was taken, and does not now.
        answer: () =>
          answer === undefined
            ? new Promise<DeliveryOutcome>(() => {})
            : // Due now: given in the same turn, as the recording's came before the clock moved on; the held
              // ones after it in order go back once it has landed.
              due(answer)
              ? Promise.resolve(give(answer)).finally(() => setImmediate(release))
              : new Promise<DeliveryOutcome>((resolve) => held.push({ answer, resolve })),
      };
    },
  };
  target.recorder.play(answerer);
  for (const step of bundle.steps) {
    count += 1;
    phase = 'during';
    let running: unknown;
    try {
      running = execute(target, count, step, diverged);
    } catch {
      // A refusal is part of the run: the journal has it, as the recording's did.
    }
    void release();
    await Promise.resolve(running).catch(() => undefined);
    phase = 'after';
    await settle();
    // Lets what the released answers started (recording an attempt, a due retry) run before the next step.
    await new Promise((resolve) => setImmediate(resolve));
  }
  finished = true;
  return { steps: bundle.steps.length, webhooks: next, diverged };
}
