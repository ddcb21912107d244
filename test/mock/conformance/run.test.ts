// runConformance end to end: the in-process mock and a standalone server against the mock report no difference,
// every scenario doing what it is there for; a target without the mock's helpers skips what needs them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCENARIOS as CONFORMANCE_SCENARIOS } from '../../../mock/conformance/scenarios/index.js';
import {
  type ConformanceReport,
  formatConformanceReport,
  type Observation,
  runConformance,
} from '../../../mock/index.js';
import { type RunningServer, startServer } from '../server/support.js';

function exchanges(report: ConformanceReport, id: string, side: 'mock' | 'sandbox' = 'sandbox') {
  const result = report.results.find((r) => r.id === id);
  if (!result) throw new Error(`no scenario ${id}`);
  return result[side].filter((o): o is Extract<Observation, { kind: 'exchange' }> => o.kind === 'exchange');
}

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
    expect(report.counts).toEqual({
      same: CONFORMANCE_SCENARIOS.length,
      differs: 0,
      review: 0,
      flaky: 0,
      skipped: 0,
      unavailable: 0,
      'not-compared': 0,
    });
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
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('reports no difference, reading the key from the test helpers', async () => {
    const report = await runConformance({ baseUrl: server.url });
    // The key reads from the helpers and is sent, never reported.
    expect(JSON.stringify(report)).not.toContain(server.key);
    expect(differences(report)).toEqual([]);
    expect(stops(report)).toEqual([]);
    expect(report.counts).toEqual({
      same: CONFORMANCE_SCENARIOS.length,
      differs: 0,
      review: 0,
      flaky: 0,
      skipped: 0,
      unavailable: 0,
      'not-compared': 0,
    });
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
