/**
 * The bundle as a file: checked on load (a bad one is refused naming the field, and nothing is made or
 * changed), bounded while recording, and what a replay does with inputs beyond the wall clock: a real-time
 * clock's ticks and webhook answers that came between steps.
 */
import { describe, expect, it } from 'vitest';
import { createServiceInternals } from '../../../mock/engine/internals.js';
import { resolveOptions } from '../../../mock/engine/options.js';
import { createMockService, MockArgumentError, type MockBundle } from '../../../mock/index.js';
import { createRecorder } from '../../../mock/observe/recorder.js';
import { initialState } from '../../../mock/operations/accounts.js';

function recorded(): { mock: ReturnType<typeof createMockService>; bundle: MockBundle } {
  const mock = createMockService({ seed: 'bundle-file' });
  mock.helpers.users.seedVerified({ mobile: '9876543210' });
  return { mock, bundle: JSON.parse(JSON.stringify(mock.bundle())) as MockBundle };
}

describe('a replay bundle', () => {
  it('is refused when it is not valid, naming the field, and nothing is made or changed', () => {
    const { mock, bundle } = recorded();
    const before = JSON.stringify(mock.helpers.snapshot());
    const cases: [unknown, string, RegExp][] = [
      [
        { ...bundle, version: 2 },
        'version',
        /field version must be 1 .*replay it with the inr-payouts version that recorded it/,
      ],
      [{ ...bundle, format: 'har' }, 'format', /field format must be "inr-payouts-mock-bundle"/],
      [
        { ...bundle, options: { ...bundle.options, startTime: 'yesterday' } },
        'options.startTime',
        /field options.startTime/,
      ],
      [{ ...bundle, steps: [{ type: 'request', method: 'GET' }] }, 'steps.0.path', /field steps.0.path/],
      [{ ...bundle, steps: [{ type: 'teleport' }] }, 'steps.0.type', /field steps.0.type/],
      [
        // Every answer keeps its place among the answers; one without it is refused, not replayed in any order.
        {
          ...bundle,
          webhooks: [
            { eventId: 'evt_1', timestamp: 1, sentAtStep: 0, answer: { atStep: 0, during: false, ok: true } },
          ],
        },
        'webhooks.0.answer.landed',
        /field webhooks.0.answer.landed/,
      ],
      ['{"format":', '', /the bundle must be object/],
    ];
    for (const [bad, field, message] of cases) {
      const thrown = (() => {
        try {
          createMockService({ replay: bad as MockBundle });
        } catch (error) {
          return error;
        }
      })();
      expect(thrown).toBeInstanceOf(MockArgumentError);
      expect(thrown).toMatchObject({ field });
      expect((thrown as Error).message).toMatch(message);
      expect((thrown as Error).message).toContain('Nothing was replayed');
    }
    // The recording service is untouched, and its bundle still replays.
    expect(JSON.stringify(mock.helpers.snapshot())).toBe(before);
    expect(() => createMockService({ replay: bundle })).not.toThrow();
  });

  it('takes its options from the bundle, whatever else is given', async () => {
    const { mock, bundle } = recorded();
    const copy = createMockService({ replay: bundle, seed: 'another', baseUrl: 'http://elsewhere.test' });
    await copy.replayed;
    expect(copy.baseUrl).toBe(mock.baseUrl);
    expect(copy.sandboxKey).toBe(mock.sandboxKey);
  });

  it('past its step limit keeps the newest steps, marks the window, and a replay refuses the bundle', async () => {
    const options = resolveOptions({ seed: 'limit' });
    const mock = createServiceInternals(options, initialState(options));
    const recorder = createRecorder(mock, { steps: 3, bytes: 1_000_000 });
    const clock = recorder.wrapClock(mock.engineClock);
    for (let i = 0; i < 3; i++) await clock.advance(`${i + 1}s`);
    expect(recorder.bundle().steps).toHaveLength(3);
    expect(recorder.bundle().window).toBeUndefined();
    await clock.advance('4s');
    expect(recorder.count).toBe(4);
    const windowed = recorder.bundle();
    expect(windowed.steps.map((s) => (s.type === 'clock' ? s.duration : ''))).toEqual(['2s', '3s', '4s']);
    expect(windowed.window).toEqual({
      startsAtStep: 1,
      reason: 'the recording let go of the steps before it, past its limit of 3 steps',
    });
    expect(() => createMockService({ replay: JSON.parse(JSON.stringify(windowed)) })).toThrow(
      /holds only the run from step 1 on .*a replay needs every step from the start/,
    );
  });

  it('records a real-time clock as ticks, idle ones as one, and replays them', async () => {
    const mock = createMockService({ seed: 'ticks' });
    mock.clock.startRealtime({ speed: 1000, tickMs: 5 });
    await new Promise((resolve) => setTimeout(resolve, 60));
    mock.clock.stop();
    await mock.clock.runDue();
    const bundle = mock.bundle();
    const ticks = bundle.steps.filter((s) => s.type === 'clock' && s.action === 'tick');
    // Ten or so ticks with nothing between them are one step of their summed time.
    expect(ticks).toHaveLength(1);
    const copy = createMockService({ replay: bundle });
    await copy.replayed;
    expect(copy.clock.now()).toBe(mock.clock.now());
  });

  it('gives a webhook answer that came between steps back between the same steps', async () => {
    const mock = createMockService({
      seed: 'late-answer',
      webhookWaitMs: 0,
      account: { webhookUrl: 'https://partner.test/hooks' },
    });
    let answer: (response: Response) => void = () => {};
    mock.helpers.webhooks.useFetch(() => new Promise((resolve) => (answer = resolve)));
    mock.helpers.webhooks.trigger({ type: 'user.created' });
    await mock.clock.runDue(); // sent; the clock does not wait (webhookWaitMs: 0)
    mock.helpers.clock.now();
    answer(new Response(null, { status: 500 }));
    // The answer is taken in before the next step starts: after step 4 (clock.now) ended.
    await new Promise((resolve) => setImmediate(resolve));
    await mock.helpers.webhooks.settle();
    await mock.clock.advance('1h'); // the retry
    const bundle = JSON.parse(JSON.stringify(mock.bundle())) as MockBundle;
    expect(bundle.webhooks[0]?.answer).toMatchObject({ atStep: 4, during: false, status: 500 });

    const copy = createMockService({ replay: bundle });
    expect((await copy.replayed)?.diverged).toEqual([]);
    expect(JSON.stringify(copy.journal.entries())).toBe(JSON.stringify(mock.journal.entries()));
    expect(JSON.stringify(copy.helpers.snapshot())).toBe(JSON.stringify(mock.helpers.snapshot()));
  });

  it('gives answers to attempts in flight together back in the order they came, not the order they were sent', async () => {
    const mock = createMockService({
      seed: 'answers-crossing',
      webhookWaitMs: 0,
      account: { webhookUrl: 'https://partner.test/hooks' },
    });
    const answers: ((response: Response) => void)[] = [];
    mock.helpers.webhooks.useFetch(() => new Promise((resolve) => answers.push(resolve)));
    mock.helpers.webhooks.trigger({ type: 'user.created' });
    mock.helpers.webhooks.trigger({ type: 'user.kyc_updated' });
    await mock.clock.runDue(); // both sent; the clock does not wait (webhookWaitMs: 0)
    expect(answers).toHaveLength(2);
    // The second receiver refuses first, the first one accepts later.
    answers[1]?.(new Response(null, { status: 503 }));
    await new Promise((resolve) => setImmediate(resolve));
    answers[0]?.(new Response(null, { status: 200 }));
    // Both came between the same two steps.
    await new Promise((resolve) => setImmediate(resolve));
    await mock.helpers.webhooks.settle();
    const bundle = JSON.parse(JSON.stringify(mock.bundle())) as MockBundle;
    expect(bundle.webhooks.map((w) => w.answer)).toEqual([
      expect.objectContaining({ atStep: 4, during: false, landed: 1, status: 200 }),
      expect.objectContaining({ atStep: 4, during: false, landed: 0, status: 503 }),
    ]);
    const landings = mock.journal.entries({ type: 'webhook' }).map((e) => e.type === 'webhook' && e.status);
    expect(landings).toEqual([503, 200]);

    const copy = createMockService({ replay: bundle });
    expect((await copy.replayed)?.diverged).toEqual([]);
    expect(JSON.stringify(copy.journal.entries())).toBe(JSON.stringify(mock.journal.entries()));
    expect(JSON.stringify(copy.helpers.snapshot())).toBe(JSON.stringify(mock.helpers.snapshot()));
  });

  it('records requests under a base URL given in any case, with a path, and replays them', async () => {
    const mock = createMockService({ seed: 'base', baseUrl: 'HTTPS://Sandbox.Example.test:443/api/' });
    const answer = await mock.dispatch(
      new Request(`${mock.baseUrl}/v2/account`, { headers: { authorization: `Bearer ${mock.sandboxKey}` } }),
    );
    expect(answer?.status).toBe(200);
    const bundle = mock.bundle();
    expect(bundle.steps).toEqual([
      expect.objectContaining({ type: 'request', method: 'GET', path: '/v2/account' }),
    ]);
    const copy = createMockService({ replay: bundle });
    await copy.replayed;
    expect(JSON.stringify(copy.journal.entries())).toBe(JSON.stringify(mock.journal.entries()));
  });
});
