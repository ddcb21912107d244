import { afterEach, describe, expect, it, vi } from 'vitest';
import { poll } from '../../src/core/poll.js';
import { APIUserAbortError, MIN_POLL_INTERVAL_MS, PollTimeoutError } from '../../src/index.js';

afterEach(() => {
  vi.useRealTimers();
});

const until = (target: number) => (value: number) =>
  value >= target ? { done: true as const, value } : { done: false as const };

describe('poll', () => {
  it('reads until done, waiting the interval between reads', async () => {
    vi.useFakeTimers();
    let reads = 0;
    const result = poll('counter', async () => ++reads, until(3), { interval: 1_000, deadline: 60_000 });
    await vi.advanceTimersByTimeAsync(999);
    expect(reads).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(reads).toBe(2);
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(result).resolves.toBe(3);
  });

  it('is never a tight loop: the interval has a floor', async () => {
    vi.useFakeTimers();
    let reads = 0;
    const result = poll('counter', async () => ++reads, until(1_000_000), { interval: 0, deadline: 1_000 });
    result.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(result).rejects.toBeInstanceOf(PollTimeoutError);
    expect(reads).toBeLessThanOrEqual(1_000 / MIN_POLL_INTERVAL_MS + 1);
  });

  it('fails with PollTimeoutError at the deadline, carrying the last value', async () => {
    vi.useFakeTimers();
    const result = poll('never', async () => 7, until(8), { interval: 1_000, deadline: 3_500 });
    result.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(3_500);
    const error = await result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(error).toMatchObject({ deadline: 3_500, lastValue: 7 });
    expect(String(error)).toMatch(/Gave up waiting for never after 3500 ms/);
  });

  it('cuts a read that outlives the deadline', async () => {
    vi.useFakeTimers();
    const result = poll(
      'slow read',
      (signal) =>
        new Promise<number>((_, reject) =>
          signal.addEventListener('abort', () => reject(new Error('read aborted'))),
        ),
      until(1),
      { interval: 1_000, deadline: 2_000 },
    );
    result.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(2_000);
    await expect(result).rejects.toBeInstanceOf(PollTimeoutError);
  });

  it('aborts at once, during the wait or before the first read', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const result = poll('x', async () => 0, until(1), {
      interval: 10_000,
      deadline: 60_000,
      signal: controller.signal,
    });
    result.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(10);
    controller.abort();
    await expect(result).rejects.toBeInstanceOf(APIUserAbortError);

    const read = vi.fn(async () => 0);
    await expect(
      poll('y', read, until(1), { interval: 10, deadline: 100, signal: AbortSignal.abort() }),
    ).rejects.toBeInstanceOf(APIUserAbortError);
    expect(read).not.toHaveBeenCalled();
  });

  it('a terminal error from decide ends the wait', async () => {
    const boom = new Error('terminal');
    await expect(
      poll(
        'x',
        async () => 1,
        () => {
          throw boom;
        },
        { interval: 10, deadline: 100 },
      ),
    ).rejects.toBe(boom);
  });

  it('allow moves the deadline later, never earlier, and the timeout reports the deadline in effect with its hint', async () => {
    vi.useFakeTimers();
    let reads = 0;
    // Read 3 (at 2 s) begins a stage allowed 5 s; read 1's 500 ms changes nothing.
    const result = poll(
      'stages',
      async () => ++reads,
      (n) => ({ done: false, allow: n === 3 ? 5_000 : 500, hint: `stuck at ${n}` }),
      { interval: 1_000, deadline: 3_000 },
    );
    result.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(reads).toBe(4);
    await vi.advanceTimersByTimeAsync(4_000);
    const error = await result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(error).toMatchObject({ deadline: 7_000, lastValue: 7 });
    expect(String(error)).toContain('Gave up waiting for stages after 7000 ms; stuck at 7');
  });
});
