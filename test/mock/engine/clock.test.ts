import { describe, expect, it, vi } from 'vitest';
import { parseDuration } from '../../../mock/engine/duration.js';
import { schedule } from '../../../mock/engine/timers.js';
import { createMockService, type MockState } from '../../../mock/index.js';

const START = Date.parse('2025-01-01T00:00:00.000Z');

function service() {
  const mock = createMockService();
  // Tests write to the live state the way tasks and resolvers do.
  const state = () => mock.state as MockState;
  return { mock, state };
}

describe('virtual clock', () => {
  it('reads durations as ms or text', () => {
    expect(parseDuration(250)).toBe(250);
    expect(parseDuration('1s')).toBe(1000);
    expect(parseDuration('10m')).toBe(600_000);
    expect(parseDuration('24h')).toBe(86_400_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('1d')).toBe(86_400_000);
    expect(parseDuration('500ms')).toBe(500);
    expect(() => parseDuration('ten minutes')).toThrow(/Cannot read the duration/);
    expect(() => parseDuration(-1)).toThrow(RangeError);
  });

  it('starts at the configured time and moves only when advanced', async () => {
    const mock = createMockService({ startTime: '2025-06-01T12:00:00Z' });
    expect(mock.clock.nowIso()).toBe('2025-06-01T12:00:00.000Z');
    const result = await mock.clock.advance('90s');
    expect(result.now).toBe('2025-06-01T12:01:30.000Z');
    expect(mock.helpers.clock.now()).toBe('2025-06-01T12:01:30.000Z');
  });

  it('runs due timers in time order, each at its own moment, and leaves later ones pending', async () => {
    const { mock, state } = service();
    const seen: string[] = [];
    mock.clock.registerTask<{ name: string }>('test.record', ({ name }, ctx) => {
      seen.push(`${name}@${ctx.now - START}`);
    });
    schedule(state(), 'test.record', '3s', { name: 'c' });
    schedule(state(), 'test.record', '1s', { name: 'a' });
    schedule(state(), 'test.record', '2s', { name: 'b1' });
    schedule(state(), 'test.record', '2s', { name: 'b2' });
    schedule(state(), 'test.record', '1h', { name: 'later' });
    const result = await mock.clock.advance('3s');
    expect(seen).toEqual(['a@1000', 'b1@2000', 'b2@2000', 'c@3000']);
    expect(result.ran).toBe(4);
    expect(mock.helpers.clock.pending().map((t) => t.payload)).toEqual([{ name: 'later' }]);
  });

  it('runs timers that a timer schedules when they fall inside the advanced window', async () => {
    const { mock, state } = service();
    const seen: number[] = [];
    mock.clock.registerTask<{ n: number }>('test.chain', ({ n }, ctx) => {
      seen.push(ctx.now - START);
      if (n < 10) schedule(ctx.state, 'test.chain', '1s', { n: n + 1 });
    });
    schedule(state(), 'test.chain', '1s', { n: 1 });
    await mock.clock.advance('4500ms');
    expect(seen).toEqual([1000, 2000, 3000, 4000]);
    expect(mock.helpers.clock.pending()).toHaveLength(1);
    await mock.clock.advance('1m');
    expect(seen).toHaveLength(10);
  });

  it('awaits async tasks before advance resolves', async () => {
    const { mock, state } = service();
    const done: string[] = [];
    mock.clock.registerTask('test.async', async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      done.push('delivered');
    });
    schedule(state(), 'test.async', '1s', {});
    await mock.clock.advance('1s');
    expect(done).toEqual(['delivered']);
  });

  it('runDue runs the timers scheduled at the current moment', async () => {
    const { mock, state } = service();
    const seen: string[] = [];
    mock.clock.registerTask('test.now', () => {
      seen.push('ran');
    });
    schedule(state(), 'test.now', 0, {});
    expect(seen).toEqual([]);
    await mock.clock.runDue();
    expect(seen).toEqual(['ran']);
    expect(mock.clock.nowIso()).toBe('2025-01-01T00:00:00.000Z');
  });

  it('queues advances so concurrent calls add up', async () => {
    const mock = createMockService();
    await Promise.all([mock.clock.advance('1m'), mock.clock.advance('1m')]);
    expect(mock.clock.now() - START).toBe(120_000);
  });

  it('reports a failing or unknown task after running the rest', async () => {
    const { mock, state } = service();
    const seen: string[] = [];
    mock.clock.registerTask('test.boom', () => {
      throw new Error('boom');
    });
    mock.clock.registerTask('test.ok', () => {
      seen.push('ok');
    });
    schedule(state(), 'test.boom', '1s', {});
    schedule(state(), 'test.ok', '2s', {});
    await expect(mock.clock.advance('5s')).rejects.toThrow('boom');
    expect(seen).toEqual(['ok']);
    expect(mock.clock.now() - START).toBe(5000);
    schedule(state(), 'test.nobody', '1s', {});
    await expect(mock.clock.advance('1s')).rejects.toThrow(
      /No task is registered for timer kind 'test.nobody'/,
    );
  });

  it('refuses a second task for the same kind', () => {
    const mock = createMockService();
    expect(() => mock.clock.registerTask('idempotency.expire', () => {})).toThrow(/already registered/);
  });

  it('real-time mode moves the virtual clock with the speed factor until stopped', async () => {
    const mock = createMockService();
    mock.clock.startRealtime({ speed: 1000, tickMs: 5 });
    expect(mock.clock.realtime).toBe(true);
    expect(() => mock.clock.startRealtime()).toThrow(/already in real-time mode/);
    await vi.waitFor(() => expect(mock.clock.now()).toBeGreaterThan(START));
    mock.clock.stop();
    expect(mock.clock.realtime).toBe(false);
  });
});
