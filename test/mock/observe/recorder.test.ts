import { describe, expect, it } from 'vitest';
import { createMockService, type MockBundle, type MockService } from '../../../mock/index.js';
import { postNothing } from '../support.js';

/**
 * The replay recording grows with traffic, so it has a byte budget: it keeps a window of the newest steps within
 * it, says where the window starts, and a replay of a windowed bundle is refused, never silently different. (The
 * journal's budget: test/mock/engine/journal.test.ts.)
 */

describe('the replay recording', () => {
  it('keeps its bundle within its byte budget, marks the window, and its replay is refused', async () => {
    const mock = createMockService({ seed: 'budget', budgets: { recordingBytes: 300_000 } });
    for (let i = 0; i < 20; i++) expect(await postNothing(mock, 100_000)).toBe(400);
    const bundle = mock.bundle();
    const text = JSON.stringify(bundle);
    // Twenty bodies of 100 KB were sent: the bundle holds the newest that fit in 300 KB, not 2 MB.
    expect(text.length).toBeLessThan(300_000 + 10_000);
    expect(bundle.steps.length).toBeGreaterThanOrEqual(2);
    expect(bundle.steps.length).toBeLessThan(20);
    expect(bundle.window).toEqual({
      startsAtStep: 20 - bundle.steps.length,
      reason: 'the recording let go of the steps before it, past its budget of 300000 bytes',
    });
    expect(() => createMockService({ replay: JSON.parse(text) as MockBundle })).toThrow(
      /holds only the run from step \d+ on/,
    );
  });

  it('keeps a run within its budget whole, with no window, and replays it', async () => {
    const mock = createMockService({ seed: 'budget' });
    for (let i = 0; i < 5; i++) await postNothing(mock, 1_000);
    const bundle = mock.bundle();
    expect(bundle.window).toBeUndefined();
    expect(bundle.steps).toHaveLength(5);
    expect((await createMockService({ replay: bundle }).replayed)?.diverged).toEqual([]);
  });

  it('lets go of one body larger than the whole budget once a newer step comes', async () => {
    const mock = createMockService({ seed: 'budget', budgets: { recordingBytes: 100_000 } });
    await postNothing(mock, 1_000_000);
    // The newest step always stays, whatever it costs.
    expect(mock.bundle().steps).toHaveLength(1);
    mock.helpers.clock.now();
    const bundle = mock.bundle();
    expect(bundle.steps).toEqual([{ type: 'helper', name: 'clock.now', args: [] }]);
    expect(bundle.window?.startsAtStep).toBe(1);
  });
});

/**
 * Consecutive steps share equal headers and answers in memory: a bundle must still show each request's own,
 * whether the request came through `mock.fetch` or straight to the service's `dispatch` (what msw's handler and
 * the standalone server call).
 */

type Get = (url: string, headers: Record<string, string>) => Promise<Response | undefined>;

const forms: Array<[string, () => { mock: MockService; send: Get }]> = [
  [
    'a fetch Request',
    () => {
      const mock = createMockService();
      return { mock, send: (url, headers) => mock.fetch(url, { headers }) };
    },
  ],
  [
    'dispatch',
    () => {
      const mock = createMockService();
      return { mock, send: (url, headers) => mock.dispatch(new Request(url, { headers })) };
    },
  ],
];

describe('the recording of consecutive requests', () => {
  it.each(forms)(
    'keeps each request its own headers and answer, equal or not to the one before (%s)',
    async (_, make) => {
      const { mock, send } = make();
      const auth = { authorization: `Bearer ${mock.sandboxKey}` };
      const get = (path: string, headers: Record<string, string>) =>
        send(`${mock.baseUrl}${path}`, { ...auth, ...headers });
      const before = mock.bundle().steps.length;
      await get('/v2/account', { 'x-a': '1' });
      await get('/v2/account', { 'x-a': '1', 'x-b': '2' });
      await get('/v2/account', { 'x-a': '1' });
      await get('/v2/account', { 'x-a': '1' });
      await get('/v2/account', { 'x-a': '2' });
      await get('/v2/users/usr_missing', { 'x-a': '2' });
      const steps = mock.bundle().steps.slice(before);
      const headers = steps.map((step) => (step.type === 'request' ? step.headers : undefined));
      expect(headers.map((h) => [h?.['x-a'], h?.['x-b']])).toEqual([
        ['1', undefined],
        ['1', '2'],
        ['1', undefined],
        ['1', undefined],
        ['2', undefined],
        ['2', undefined],
      ]);
      expect(steps.map((step) => (step.type === 'request' ? step.path : undefined))).toEqual([
        '/v2/account',
        '/v2/account',
        '/v2/account',
        '/v2/account',
        '/v2/account',
        '/v2/users/usr_missing',
      ]);
      const answers = steps.map((step) => (step.type === 'request' ? step.answer : undefined));
      expect(answers.slice(0, 5).every((a) => a?.status === 200 && a.digest === answers[0]?.digest)).toBe(
        true,
      );
      expect(answers[5]?.status).toBe(404);
      expect(answers[5]?.digest).not.toBe(answers[0]?.digest);
    },
  );
});
