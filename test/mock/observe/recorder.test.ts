/**
 * What grows with traffic has a byte budget: the replay recording and the journal keep a window of the newest
 * within it, say where the window starts, and a replay of a windowed bundle is refused, never silently
 * different. (The standalone server under a 128 MB heap and a 5-minute soak: test/slow/heap-128.test.ts and soak.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import {
  createMockService,
  JOURNAL_BUDGET_BYTES,
  type MockBundle,
  RECORDING_BUDGET_BYTES,
} from '../../../mock/index.js';
import { parseCli } from '../../../mock/server/cli.js';

/** A POST of `size` characters to a route that stores nothing (an invalid user: 400). */
async function postNothing(mock: ReturnType<typeof createMockService>, size: number): Promise<number> {
  const response = await mock.dispatch(
    new Request(`${mock.baseUrl}/v2/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mock.sandboxKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ note: 'x'.repeat(size) }),
    }),
  );
  return response?.status ?? 0;
}

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

describe('the journal', () => {
  it('keeps its entries within its byte budget and says how many it let go', async () => {
    const mock = createMockService({ seed: 'budget', budgets: { journalBytes: 100_000 } });
    for (let i = 0; i < 200; i++) await postNothing(mock, 5_000);
    const { journal } = mock;
    expect(journal.budgetBytes).toBe(100_000);
    expect(journal.bytes).toBeLessThanOrEqual(100_000);
    expect(journal.dropped).toBeGreaterThan(0);
    const entries = journal.entries();
    expect(entries.length).toBe(journal.size);
    // Sequence numbers run on with no gap: the window starts right after the entries let go.
    expect(entries[0]?.seq).toBe(journal.dropped + 1);
    expect(entries.at(-1)?.seq).toBe(journal.dropped + journal.size);
    // Each entry keeps only the start of a long body.
    expect(entries.at(-1)).toMatchObject({ type: 'request', status: 400, requestBodyCut: true });
  });

  it('has the defaults, and a budget too small to be meant is refused', () => {
    const mock = createMockService();
    expect(mock.journal.budgetBytes).toBe(JOURNAL_BUDGET_BYTES);
    expect(mock.journal.dropped).toBe(0);
    expect(RECORDING_BUDGET_BYTES).toBe(16 * 1024 * 1024);
    expect(() => createMockService({ budgets: { journalBytes: 16 } })).toThrow(
      /budgets\.journalBytes must be a number of bytes of at least 65536, got 16/,
    );
    expect(() => createMockService({ budgets: { recordingBytes: Number.NaN } })).toThrow(RangeError);
  });
});

describe('the budget flags', () => {
  it('--recorder-budget and --journal-budget take megabytes', () => {
    expect(parseCli(['--recorder-budget', '8', '--journal-budget', '0.5']).budgets).toEqual({
      recordingBytes: 8_000_000,
      journalBytes: 500_000,
    });
    expect(parseCli([]).budgets).toEqual({});
    expect(() => parseCli(['--journal-budget', 'lots'])).toThrow(
      /--journal-budget must be a number of megabytes of at least 0.1, got lots/,
    );
  });
});
