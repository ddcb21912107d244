import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConformanceReport } from '../../../mock/conformance/types.js';
import { ConformanceError, runConformance } from '../../../mock/index.js';
import { type RunningServer, startServer } from '../server/support.js';

// A failed run is never drift: transient failures are retried as the client retries them, what stays unavailable
// is reported as "target unavailable" naming the request (exit status 2), and a run that cannot start fails at
// once, before the run, with exit status 2.

const named = (report: ConformanceReport) => report.results.flatMap((r) => r.differences.map((d) => d.text));

/** A `fetch` to `server` that answers `status` itself, before the server sees it, where `fails` says so. */
function flaky(fails: (request: Request, n: number) => number | 'stall' | undefined): typeof fetch {
  let n = 0;
  return async (input, init) => {
    const request = new Request(input, init);
    n += 1;
    const failure = fails(request, n);
    if (failure === 'stall') {
      // Never answers; gives up only when the run's time-out aborts it.
      return new Promise<Response>((_, reject) => {
        const signal = init?.signal ?? request.signal;
        signal.addEventListener('abort', () => reject(signal.reason));
      });
    }
    if (failure !== undefined) {
      return new Response(JSON.stringify({ error: 'Service Unavailable', message: 'try again' }), {
        status: failure,
        headers: { 'content-type': 'application/json', ...(failure === 429 ? { 'retry-after': '0' } : {}) },
      });
    }
    return fetch(request);
  };
}

const path = (request: Request) => new URL(request.url).pathname;

describe('a failed run is never drift', () => {
  let server: RunningServer;
  let dir = '';
  beforeAll(async () => {
    server = await startServer();
    dir = mkdtempSync(join(tmpdir(), 'inr-payouts-conformance-failures-'));
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('1 request in 20 answered 503 (and a 429): retried as the client retries, nothing differs, exit status 0', async () => {
    const progress: string[] = [];
    // The scenarios of three areas, about 60 requests; test/slow runs the whole suite so.
    const report = await runConformance({
      baseUrl: server.url,
      apiKey: server.key,
      only: ['account.', 'kyc.', 'idempotency.'],
      fetch: flaky((request, n) =>
        path(request).startsWith('/v2/') ? (n % 20 === 0 ? 503 : n === 7 ? 429 : undefined) : undefined,
      ),
      backoff: 0,
      onProgress: (line) => progress.push(line),
    });
    expect(named(report)).toEqual([]);
    expect(report.counts.unavailable).toBe(0);
    expect(report.exitCode).toBe(0);
    const retries = progress.filter((line) => /answered (503|429): retry 1 of 2/.test(line));
    expect(retries.length).toBeGreaterThan(3);
  }, 60_000);

  it('a request that never succeeds: "target unavailable" naming it, not compared, exit status 2', async () => {
    const report = await runConformance({
      baseUrl: server.url,
      apiKey: server.key,
      only: ['account.'],
      fetch: flaky((request) => (path(request) === '/v2/account/credit' ? 503 : undefined)),
      backoff: 0,
    });
    const credit = report.results.find((r) => r.id === 'account.credit');
    expect(credit).toMatchObject({
      outcome: 'unavailable',
      reason: 'target unavailable: GET /v2/account/credit answered 503 on each of 3 attempts',
      differences: [],
    });
    expect(named(report)).toEqual([]);
    expect(report.exitCode).toBe(2);
    expect(report.ok).toBe(false);
  }, 30_000);

  it('a stalled request: each attempt times out with progress, then the target is unavailable', async () => {
    const progress: string[] = [];
    const report = await runConformance({
      baseUrl: server.url,
      apiKey: server.key,
      only: ['account.read', 'account.credit'],
      fetch: flaky((request) => (path(request) === '/v2/account/credit' ? 'stall' : undefined)),
      timeoutMs: 150,
      backoff: 0,
      onProgress: (line) => progress.push(line),
    });
    expect(report.results.map((r) => [r.id, r.outcome, r.reason])).toEqual([
      ['account.read', 'same', undefined],
      [
        'account.credit',
        'unavailable',
        'target unavailable: GET /v2/account/credit gave no answer in 0.15 s on each of 3 attempts',
      ],
    ]);
    expect(progress).toContain('  GET /v2/account/credit gave no answer in 0.15 s: retry 1 of 2');
    expect(report.exitCode).toBe(2);
  }, 30_000);

  it('a POST is sent as the client sends it: with an Idempotency-Key its retries repeat; one that stays 503 is unavailable', async () => {
    const keys: (string | null)[] = [];
    const report = await runConformance({
      baseUrl: server.url,
      apiKey: server.key,
      only: ['auth.missing-key'],
      fetch: flaky((request) => {
        if (request.method !== 'POST' || !path(request).startsWith('/v2/')) return undefined;
        keys.push(request.headers.get('idempotency-key'));
        return 503;
      }),
      backoff: 0,
    });
    expect(report.results[0]).toMatchObject({
      outcome: 'unavailable',
      reason:
        'target unavailable: POST /v2/users/usr_conformance_none/kyc/bank/verify answered 503 on each of 3 attempts',
    });
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  }, 30_000);

  it('the helper probe: a transient 503 is retried; one that stays is no answer, never "no helpers"', async () => {
    let probes = 0;
    const once = await runConformance({
      baseUrl: server.url,
      only: ['account.read'],
      backoff: 0,
      fetch: flaky((request) => (path(request) === '/__mock' && ++probes === 1 ? 503 : undefined)),
    });
    // The key was read from the helpers the retried probe found.
    expect(once.counts.same).toBe(1);
    const send = vi.fn(flaky((request) => (path(request) === '/__mock' ? 503 : undefined)));
    const failed = runConformance({ baseUrl: server.url, apiKey: server.key, backoff: 0, fetch: send });
    await expect(failed).rejects.toBeInstanceOf(ConformanceError);
    await expect(failed).rejects.toThrow(
      `conformance: could not tell whether ${server.url} has the mock's test helpers: GET /__mock answered 503 on each of 3 attempts`,
    );
    expect(send.mock.calls.every(([input]) => path(new Request(input)) === '/__mock')).toBe(true);
  }, 30_000);
});
