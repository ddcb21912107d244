import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPacer } from '../../../mock/conformance/pace.js';
import { SCENARIOS as CONFORMANCE_SCENARIOS } from '../../../mock/conformance/scenarios/index.js';
import {
  ConformanceError,
  type ConformanceReport,
  createMockService,
  formatConformanceReport,
  type Observation,
  runConformance,
} from '../../../mock/index.js';
import { runCli } from '../../../mock/server/cli.js';
import { standaloneServer } from '../server/support.js';

// runConformance end to end: the in-process mock and a standalone server against the mock report no difference,
// every scenario doing what it is there for; a target without the mock's helpers skips what needs them.

function exchanges(report: ConformanceReport, id: string, side: 'mock' | 'sandbox' = 'sandbox') {
  const result = report.results.find((r) => r.id === id);
  if (!result) throw new Error(`no scenario ${id}`);
  return result[side].filter((o): o is Extract<Observation, { kind: 'exchange' }> => o.kind === 'exchange');
}

/** The counts of a run in which every scenario was the same on both sides. */
const EVERY_SCENARIO_SAME = {
  same: CONFORMANCE_SCENARIOS.length,
  differs: 0,
  review: 0,
  flaky: 0,
  skipped: 0,
  unavailable: 0,
  'not-compared': 0,
};

function differences(report: ConformanceReport): string[] {
  return report.results.flatMap((r) => r.differences.map((d) => `${r.id}: ${d.text}`));
}

function stops(report: ConformanceReport): string[] {
  return report.results.flatMap((r) =>
    [...r.mock, ...r.sandbox].flatMap((o) => (o.kind === 'stopped' ? [`${r.id}: ${o.error}`] : [])),
  );
}

describe('runConformance against the in-process mock', () => {
  let report: ConformanceReport;
  const progress: string[] = [];
  beforeAll(async () => {
    report = await runConformance({ onProgress: (line) => progress.push(line) });
  }, 30_000);

  it('reports no difference, and every scenario ran to its end on both sides', () => {
    expect(differences(report)).toEqual([]);
    expect(stops(report)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.counts).toEqual(EVERY_SCENARIO_SAME);
    expect(report.target).toBe('in-process mock');
    expect(report.rateLimit).toBe(600);
  });

  it('reports progress: the run, then each scenario as it ends, with its outcome', () => {
    expect(progress[0]).toMatch(
      /^conformance: in-process mock, tiers read-only, creates, mock-helpers, 600 requests\/min, prefix conf-[0-9a-f]{8}-$/,
    );
    // Then what the run will do to the target, and at the end what it did.
    expect(progress.slice(1, 4)).toEqual([
      expect.stringMatching(
        /^ {2}Will create test users and transactions on the target, each named with conf-[0-9a-f]{8}- /,
      ),
      expect.stringMatching(/^ {2}Will use the target's test helpers: move its clock forward/),
      expect.stringMatching(/^\[1\//),
    ]);
    expect(progress.at(-3)).toMatch(
      /^ {2}Created \d+ user\(s\) and \d+ transaction\(s\) on the target through the API\.$/,
    );
    expect(progress.at(-2)).toMatch(/^ {2}Moved the target's clock [\d.]+ h forward\.$/);
    // The requests it sent there, the count the report carries (an in-process target's helpers are calls, not requests).
    expect(report.requests).toBeGreaterThan(0);
    expect(progress.at(-1)).toBe(`  Sent ${report.requests} requests to the target.`);
    expect(
      progress.filter((line) => line.startsWith('[')).map((line) => line.replace(/\(\d+ ms\)$/, '(… ms)')),
    ).toEqual(
      CONFORMANCE_SCENARIOS.map((s, i) => `[${i + 1}/${CONFORMANCE_SCENARIOS.length}] ${s.id}: same (… ms)`),
    );
  });

  it('the scenarios meet the answers they are about', () => {
    const statuses = (id: string) => exchanges(report, id).map((e) => e.status);
    expect(statuses('auth.missing-key')).toEqual([401, 401, 401]);
    expect(statuses('idempotency.user-create')).toEqual([201, 200, 409]);
    expect(exchanges(report, 'idempotency.user-create')[1]?.headers['idempotent-replayed']).toBe('true');
    expect(statuses('rate-limit.exceeded')).toEqual([200, 200, 429]);
    expect(statuses('kyc.otp-send-limit')).toEqual([201, 200, 200, 200, 429]);
    const codes = (id: string) =>
      exchanges(report, id).map(
        (e) => (e.body as { code?: string; error?: string }).code ?? (e.body as { error?: string }).error,
      );
    expect(codes('transactions.amount-limits')).toEqual(['AMOUNT_TOO_LOW', 'AMOUNT_TOO_HIGH']);
    expect(codes('transactions.kyc-incomplete').at(-1)).toBe('KYC_INCOMPLETE');
    const flow = report.results.find((r) => r.id === 'transactions.standard-flow');
    const states = flow?.sandbox.flatMap((o) =>
      o.kind === 'step' && o.label.startsWith('transaction ') ? [o.value] : [],
    );
    expect(states?.map((s) => (s as { status: string }).status)).toEqual([
      'created',
      'deposit_pending',
      'payout_processing',
      'completed',
    ]);
  });

  it('opens with the coverage: every endpoint met with a success and a refusal, every event type received', () => {
    const notExercised = [...report.coverage.endpoints, ...report.coverage.events].filter(
      (r) => r.status !== 'exercised',
    );
    expect(notExercised).toEqual([]);
    expect(report.coverage.endpoints).toHaveLength(31);
    expect(report.coverage.events).toHaveLength(10);
    expect(formatConformanceReport(report).split('\n')[1]).toBe(
      'Coverage: 31 of 31 endpoints met with a success and a refusal, 10 of 10 event types received and checked',
    );
  });

  it('names everything it creates with the run prefix', () => {
    const references = report.results.flatMap((r) =>
      r.sandbox.flatMap((o) => {
        const data =
          o.kind === 'exchange'
            ? (o.body as { data?: { transaction?: { partnerReference?: string } } } | undefined)?.data
            : undefined;
        return data?.transaction?.partnerReference ? [data.transaction.partnerReference] : [];
      }),
    );
    expect(references.length).toBeGreaterThan(0);
    for (const reference of references) expect(reference.startsWith(report.prefix)).toBe(true);
  });
});

describe('runConformance against a standalone server', () => {
  const server = standaloneServer();

  it('reports no difference, reading the key from the test helpers', async () => {
    const report = await runConformance({ baseUrl: server.url });
    // The key reads from the helpers and is sent, never reported.
    expect(JSON.stringify(report)).not.toContain(server.key);
    expect(differences(report)).toEqual([]);
    expect(stops(report)).toEqual([]);
    expect(report.counts).toEqual(EVERY_SCENARIO_SAME);
    // Over HTTP, the helpers' requests are counted among the target's.
    expect(report.effects.at(-1)).toMatch(
      new RegExp(`^Sent ${report.requests} requests to the target, \\d+ of them to its test helpers\\.$`),
    );
    // A second run against the state the first left behind is as clean.
    const again = await runConformance({
      baseUrl: server.url,
      apiKey: server.key,
      tier: ['read-only', 'creates'],
    });
    expect(differences(again)).toEqual([]);
    expect(again.prefix).not.toBe(report.prefix);
  }, 60_000);

  it('against a target without the mock helpers (a sandbox), skips what needs them and says why', async () => {
    const sandboxFetch: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      if (new URL(request.url).pathname.startsWith('/__mock')) return new Response(null, { status: 404 });
      return fetch(request);
    };
    const report = await runConformance({ baseUrl: server.url, apiKey: server.key, fetch: sandboxFetch });
    expect(differences(report)).toEqual([]);
    const skipped = report.results.filter((r) => r.outcome === 'skipped');
    expect(skipped.map((r) => r.tier)).toEqual(skipped.map(() => 'mock-helpers'));
    expect(skipped.length).toBe(CONFORMANCE_SCENARIOS.filter((s) => s.tier === 'mock-helpers').length);
    for (const r of skipped)
      expect(r.reason).toMatch(/needs the mock's test helpers \(\/__mock\), which this target has not/);
    // The coverage says what a sandbox run cannot reach, and why; where a guided run reaches it, how.
    const noHelpers = "needs the mock's helpers, which this target has not";
    const guidedEvents = `${noHelpers}: run with --guided and --receiver-url to reach it`;
    expect(report.coverage.events.map((r) => [r.name, r.status, r.why])).toEqual([
      ['user.created', 'not reachable', noHelpers],
      ['user.kyc_updated', 'not reachable', noHelpers],
      ['transaction.created', 'not reachable', guidedEvents],
      ['transaction.deposit_detected', 'not reachable', guidedEvents],
      ['transaction.deposit_confirmed', 'not reachable', guidedEvents],
      ['transaction.sweep_confirmed', 'not reachable', noHelpers],
      ['transaction.sweep_failed', 'not reachable', noHelpers],
      ['transaction.payout_initiated', 'not reachable', guidedEvents],
      ['transaction.payout_completed', 'not reachable', guidedEvents],
      ['transaction.payout_failed', 'not reachable', noHelpers],
    ]);
    const row = (name: string) => report.coverage.endpoints.find((r) => r.name === name);
    expect(row('POST /v2/transactions')).toEqual({
      name: 'POST /v2/transactions',
      status: 'refusal only',
      why: `no success met; ${noHelpers}: run with --guided to reach it`,
      sent: { scenarios: expect.any(Number), cases: 0 },
    });
    expect(row('POST /v2/users/:userId/kyc/document')).toEqual({
      name: 'POST /v2/users/:userId/kyc/document',
      status: 'not reachable',
      why: noHelpers,
      sent: { scenarios: 0, cases: 0 },
    });
    await expect(runConformance({ baseUrl: server.url, fetch: sandboxFetch })).rejects.toThrow(
      /no mock test helpers to read a key from: give the sandbox key \(--api-key pk_sandbox_…\)/,
    );
  }, 60_000);
});

describe('runs that cannot start', () => {
  // A failed run is never drift: transient failures are retried as the client retries them, what stays unavailable
  // is reported as "target unavailable" naming the request (exit status 2), and a run that cannot start fails at
  // once, before the run, with exit status 2.

  const path = (request: Request) => new URL(request.url).pathname;

  describe('a run that cannot start fails at once, exit status 2', () => {
    let stalled: Server;
    let stalledUrl = '';
    let dir = '';
    beforeAll(async () => {
      // Accepts every connection and never answers.
      stalled = createServer(() => {});
      await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
      stalledUrl = `http://127.0.0.1:${(stalled.address() as AddressInfo).port}`;
      dir = mkdtempSync(join(tmpdir(), 'inr-payouts-conformance-start-'));
    });
    afterAll(async () => {
      stalled.closeAllConnections();
      await new Promise<void>((resolve) => stalled.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    });

    /** `runCli(argv)`'s rejection, with its message and exit status. */
    async function cliFailure(argv: string[]): Promise<{ message: string; exitCode: unknown }> {
      const error: unknown = await runCli(['conformance', ...argv]).then(
        () => undefined,
        (e: unknown) => e,
      );
      if (!(error instanceof Error)) throw new Error(`expected a rejection, got ${String(error)}`);
      return { message: error.message, exitCode: 'exitCode' in error ? error.exitCode : undefined };
    }

    it('an unreachable target', async () => {
      // A port that was free a moment ago: nothing listens there.
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      const failure = await cliFailure(['--base-url', url, '--api-key', 'pk_sandbox_x']);
      expect(failure.exitCode).toBe(2);
      expect(failure.message).toBe(
        `conformance: ${url} did not answer (GET /__mock failed (fetch failed: connect ECONNREFUSED ${url.slice(7)})); check --base-url and that the target is up`,
      );
    });

    it('a stalled target, at the first request, after one time-out', async () => {
      const failure = await cliFailure([
        '--base-url',
        stalledUrl,
        '--api-key',
        'pk_sandbox_x',
        '--timeout',
        '0.2',
      ]);
      expect(failure).toEqual({
        exitCode: 2,
        message: `conformance: ${stalledUrl} did not answer (GET /__mock gave no answer in 0.2 s); check --base-url and that the target is up`,
      });
    });

    it('--only that names no scenario, and a report path that cannot be written: before anything is sent', async () => {
      const send = vi.fn<typeof fetch>();
      await expect(
        runConformance({ baseUrl: stalledUrl, apiKey: 'pk_sandbox_x', only: ['acount.'], fetch: send }),
      ).rejects.toThrow(/^--only "acount\." names no scenario: the IDs start with auth\., account\., /);
      expect(send).not.toHaveBeenCalled();
      // The stalled target would hang the run: these fail before it is asked anything.
      for (const option of ['--json', '--html']) {
        const failure = await cliFailure(['--base-url', stalledUrl, option, join(dir, 'missing', 'report')]);
        expect(failure.exitCode).toBe(2);
        expect(failure.message).toBe(
          `${option} ${join(dir, 'missing', 'report')} cannot be written (ENOENT): give a file in a directory you can write to`,
        );
      }
      expect((await cliFailure(['--base-url', stalledUrl, '--json', dir])).message).toMatch(
        /cannot be written \(it is a directory\)/,
      );
    });

    it('a pk_live_ key in any case, with space around it, is refused before anything is sent', async () => {
      const send = vi.fn<typeof fetch>();
      for (const apiKey of [' pk_live_abc', 'PK_LIVE_abc', '\tPk_Live_abc \n']) {
        await expect(runConformance({ baseUrl: stalledUrl, apiKey, fetch: send })).rejects.toThrow(
          /^Refusing a pk_live_ key/,
        );
      }
      expect(send).not.toHaveBeenCalled();
      expect((await cliFailure(['--base-url', stalledUrl, '--api-key', ' pk_live_abc'])).exitCode).toBe(2);
    });

    it('--tier read-only sends nothing that could change the target: reads, and writes without a valid key', async () => {
      const target = createMockService({ baseUrl: 'http://sandbox.conformance.test' });
      const sent: string[] = [];
      const send: typeof fetch = async (input, init) => {
        const request = new Request(input, init);
        const p = path(request);
        if (p === '/__mock') return new Response(null, { status: 404 });
        if (
          request.method !== 'GET' &&
          request.headers.get('authorization') === `Bearer ${target.sandboxKey}`
        )
          sent.push(`${request.method} ${p}`);
        return target.fetch(request);
      };
      const report = await runConformance({
        baseUrl: target.baseUrl,
        apiKey: target.sandboxKey,
        fetch: send,
        tier: 'read-only',
      });
      expect(sent).toEqual([]);
      expect(report.results.filter((r) => r.tier === 'read-only').length).toBeGreaterThan(4);
      expect(report.exitCode).toBe(0);
    });
  });
});

// What keeps a run safe against a partner's real service: a live key refused with nothing sent, tiers that
// choose what runs, and every request paced to the account's rate limit.

describe('conformance safety', () => {
  it('refuses a pk_live_ key before sending anything', async () => {
    const send = vi.fn<typeof fetch>();
    const run = runConformance({
      baseUrl: 'https://api.example.test',
      apiKey: 'pk_live_abc123',
      fetch: send,
    });
    await expect(run).rejects.toBeInstanceOf(ConformanceError);
    await expect(run).rejects.toThrow(
      /Refusing a pk_live_ key: .* run it against your sandbox with a pk_sandbox_ key/,
    );
    expect(send).not.toHaveBeenCalled();
  });

  it('refuses an unknown tier and a base URL that is not one, before sending anything', async () => {
    const send = vi.fn<typeof fetch>();
    await expect(
      runConformance({ tier: ['read-only', 'everything' as 'creates'], fetch: send }),
    ).rejects.toThrow('Unknown tier "everything": use read-only, creates, mock-helpers');
    await expect(
      runConformance({ baseUrl: 'sandbox.example', apiKey: 'pk_sandbox_1', fetch: send }),
    ).rejects.toThrow('--base-url is not a URL: sandbox.example');
    expect(send).not.toHaveBeenCalled();
  });

  it('runs only the tiers chosen; read-only stores nothing', async () => {
    const report = await runConformance({ tier: 'read-only' });
    expect(report.tiers).toEqual(['read-only']);
    for (const r of report.results) {
      if (r.tier === 'read-only') expect(r.outcome).toBe('same');
      else
        expect(r).toMatchObject({
          outcome: 'skipped',
          reason: `tier ${r.tier} not chosen`,
          mock: [],
          sandbox: [],
        });
    }
    const stored = report.results.flatMap((r) =>
      r.sandbox.flatMap((o) =>
        o.kind === 'exchange' && o.method !== 'GET' && o.status < 300 ? [`${r.id} ${o.label}`] : [],
      ),
    );
    expect(stored).toEqual([]);
    const both = await runConformance({ tier: ['creates', 'read-only'], only: ['kyc.', 'account.read'] });
    expect(both.tiers).toEqual(['read-only', 'creates']);
    expect(both.results.map((r) => r.id)).toEqual(
      CONFORMANCE_SCENARIOS.filter((s) => s.id.startsWith('kyc.') || s.id === 'account.read').map(
        (s) => s.id,
      ),
    );
  }, 30_000);

  it('paces requests to the rate limit: at most that many start in any minute', async () => {
    let now = 0;
    const slept: number[] = [];
    const pacer = createPacer(
      3,
      () => now,
      async (ms) => {
        slept.push(ms);
        now += ms;
      },
    );
    const starts: number[] = [];
    for (let i = 0; i < 7; i++) {
      await pacer.next();
      starts.push(now);
      now += 1_000;
    }
    expect(starts).toEqual([0, 1_000, 2_000, 60_000, 61_000, 62_000, 120_000]);
    expect(slept).toEqual([57_000, 57_000]);
  });

  it('reads the rate limit from the account before anything else, and paces the run to it', async () => {
    const seen: string[] = [];
    const { createMockService } = await import('../../../mock/index.js');
    const target = createMockService({ baseUrl: 'http://sandbox.conformance.test' });
    target.helpers.accounts.update({ limits: { rateLimit: 5_000 } });
    const send: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const path = new URL(request.url).pathname;
      seen.push(`${request.method} ${path}`);
      // A sandbox: no test helpers.
      return path === '/__mock' ? new Response(null, { status: 404 }) : target.fetch(request);
    };
    const report = await runConformance({
      baseUrl: target.baseUrl,
      apiKey: target.sandboxKey,
      fetch: send,
      only: ['account.read'],
    });
    expect(seen.slice(0, 2)).toEqual(['GET /__mock', 'GET /v2/account']);
    expect(report.rateLimit).toBe(5_000);
  });
});
