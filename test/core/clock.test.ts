import { describe, expect, it } from 'vitest';
import { type ClientClock, PollTimeoutError, RateLimitError } from '../../src/index.js';
import { account, transaction } from '../support/fixtures.js';
import { fail, makeClient, ok, route, useServer } from '../support/msw.js';

useServer();

/** A clock that jumps instead of waiting, and records every wait asked of it. */
function jumpingClock(start = Date.parse('2025-01-01T00:00:00Z')) {
  let now = start;
  const sleeps: number[] = [];
  const clock: ClientClock = {
    now: () => now,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      sleeps.push(ms);
      now += ms;
    },
  };
  return { clock, sleeps, elapsed: () => now - start };
}

describe('the clock option: every wait of the client runs on the given clock', () => {
  // With real waiting this call would need 30 s, past the test's own 20 s time-out.
  it('waits out a 429 retryAfter: 30 on the given clock, not in real time', async () => {
    const { clock, sleeps } = jumpingClock();
    const seen = route(
      'get',
      '/v2/account',
      fail(429, { error: 'Too Many Requests', message: 'slow down', code: 'RATE_LIMITED', retryAfter: 30 }),
      ok(account),
    );
    const client = makeClient({ clock, maxRetries: 1, maxRetryAfter: 60_000 });
    const { data, response } = await client.account.retrieve().withResponse();
    expect(data.id).toBe(account.id);
    expect(response.attempts).toBe(2);
    expect(sleeps).toEqual([30_000]);
    expect(seen).toHaveLength(2);
  });

  it('measures the call deadline on the given clock', async () => {
    const { clock, sleeps } = jumpingClock();
    route(
      'get',
      '/v2/account',
      fail(429, { error: 'Too Many Requests', message: 'slow down', code: 'RATE_LIMITED', retryAfter: 30 }),
    );
    const client = makeClient({ clock, maxRetries: 5, deadline: 45_000 });
    // The first wait (30 s) fits the 45 s deadline; a second one would pass it, so the 429 is thrown.
    const error = await client.account.retrieve().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(sleeps).toEqual([30_000]);
  });

  it("reads X-RateLimit-Reset against the given clock's time", async () => {
    const { clock, sleeps } = jumpingClock();
    const resetAt = Math.floor(clock.now() / 1000) + 12;
    route(
      'get',
      '/v2/account',
      new Response(JSON.stringify({ error: 'Too Many Requests', message: 'later', code: 'RATE_LIMITED' }), {
        status: 429,
        headers: { 'content-type': 'application/json', 'x-ratelimit-reset': String(resetAt) },
      }),
      ok(account),
    );
    await makeClient({ clock, maxRetries: 1 }).account.retrieve();
    expect(sleeps).toEqual([12_000]);
  });

  it("measures a poll's interval and deadline on the given clock", async () => {
    const { clock, sleeps, elapsed } = jumpingClock();
    const reads = route('get', '/v2/transactions/txn_1', ok(transaction('deposit_pending')));
    const client = makeClient({ clock });
    const error = await client.transactions
      .waitForStatus('txn_1', { statuses: ['completed'], interval: 10_000, deadline: 60_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PollTimeoutError);
    // Reads at 0, 10, ..., 50 s of the clock; the deadline of 60 s ends the wait before a seventh read.
    expect(reads).toHaveLength(6);
    expect(sleeps.filter((ms) => ms === 10_000)).toHaveLength(6);
    expect(elapsed()).toBeGreaterThanOrEqual(60_000);
  });

  it('keeps the real clock by default', async () => {
    route('get', '/v2/account', ok(account));
    const { response } = await makeClient().account.retrieve().withResponse();
    expect(response.attempts).toBe(1);
  });
});
