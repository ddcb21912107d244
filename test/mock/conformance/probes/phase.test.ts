// The probes of every field rule at its boundaries: against the mock itself (in-process, the standalone server in
// its strict profile, the standalone server behind a clean wrapper) no line; planted in front of it, a target that accepts what the mock
// refuses (an 8-digit account number) or refuses what it accepts (a webhook page of 100) is named with the rule
// each disagreement probes, and nothing else; the cases and their count are the same in every run of a seed.
import { describe, expect, it } from 'vitest';
import { probeCases } from '../../../../mock/conformance/probes/cases.js';
import type { ConformanceOptions } from '../../../../mock/conformance/types.js';
import { conformanceHtml, formatConformanceReport, runConformance } from '../../../../mock/index.js';
import { standaloneServers } from '../../server/support.js';

const [standard, strict] = standaloneServers([], ['--profile', 'strict']);

/** The probes alone: no scenario, the default seed and cap. */
const PROBES_ONLY: ConformanceOptions = { scenarios: [], probes: {} };

const lines = (report: Awaited<ReturnType<typeof runConformance>>) =>
  (report.probes?.differences ?? []).map((d) => `${d.severity}: ${d.endpoint} ${d.text}`);

/**
 * A target in front of the standalone server that accepts an 8-digit account number (it sends the server a 9-digit one, as a
 * service with a looser rule would take it) and refuses a webhook page of 100 (as one with a lower maximum would).
 */
function planted(): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (request.method === 'POST' && url.pathname.endsWith('/kyc/bank/verify')) {
      const body = (await request.clone().json()) as Record<string, unknown>;
      if (typeof body.accountNumber === 'string' && /^\d{8}$/.test(body.accountNumber))
        return fetch(
          new Request(request, {
            body: JSON.stringify({ ...body, accountNumber: `${body.accountNumber}0` }),
          }),
        );
    }
    if (
      request.method === 'GET' &&
      url.pathname === '/v2/webhooks' &&
      url.searchParams.get('limit') === '100'
    )
      return Response.json(
        { error: 'Bad Request', message: 'limit must be from 1 to 50', code: 'VALIDATION_ERROR' },
        { status: 400 },
      );
    return fetch(request);
  };
}

describe('the probes', () => {
  // Each server's account takes 600 requests a minute: its runs here stay under that together (a whole probe
  // run is about 300), so none waits out a 429.
  it('against the mock itself, in-process and the standalone server in its strict profile: no line', async () => {
    for (const baseUrl of [undefined, strict.url]) {
      const report = await runConformance({ ...PROBES_ONLY, baseUrl });
      expect(lines(report)).toEqual([]);
      expect(report.probes?.compared).toBe(report.probes?.generated);
      expect(report.exitCode).toBe(0);
    }
  }, 60_000);

  it('names each planted field-rule disagreement with its rule, and nothing else; the run exits 1', async () => {
    const progress: string[] = [];
    const report = await runConformance({
      ...PROBES_ONLY,
      baseUrl: standard.url,
      fetch: planted(),
      onProgress: (line) => progress.push(line),
    });
    expect(lines(report)).toEqual([
      'breaking: POST /v2/users/:userId/kyc/bank/verify accountNumber, 8 digits: mock 400 Validation Error, sandbox 404 Not Found',
      'breaking: GET /v2/webhooks limit, 100: mock 200, sandbox 400 VALIDATION_ERROR',
    ]);
    expect(report.exitCode).toBe(1);
    expect(report.ok).toBe(false);
    const text = formatConformanceReport(report);
    expect(text).toContain(
      `Probes: ${report.probes?.compared} of ${report.probes?.generated} cases compared (seed 1, at most 24 per endpoint): 2 differ on 2 endpoint(s)`,
    );
    expect(text).toContain(
      'differs POST /v2/users/:userId/kyc/bank/verify\n          breaking: accountNumber, 8 digits: mock 400 Validation Error, sandbox 404 Not Found',
    );
    expect(text).toMatch(/; probe cases: 2 breaking \(exit status 1\)$/);
    expect(conformanceHtml(report)).toContain(
      '<li>breaking: accountNumber, 8 digits: mock 400 Validation Error, sandbox 404 Not Found</li>',
    );
    // The coverage table counts each endpoint's cases.
    const bank = report.coverage.endpoints.find((r) => r.name === 'POST /v2/users/:userId/kyc/bank/verify');
    expect(bank?.sent?.cases).toBeGreaterThan(0);
    expect(progress).toContain(
      '  probe POST /v2/users/:userId/kyc/bank/verify (creates): 23 cases, 1 differ',
    );
  }, 60_000);

  it('a case that differs once and not when sent again is flaky: named so, and the run exits 0', async () => {
    let planted = 0;
    // Refuses a webhook page of 100 the first time only, as a service whose node was briefly on an old rule.
    const once: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      if (url.pathname === '/v2/webhooks' && url.searchParams.get('limit') === '100' && planted++ === 0)
        return Response.json(
          { error: 'Bad Request', message: 'limit must be from 1 to 50', code: 'VALIDATION_ERROR' },
          { status: 400 },
        );
      return fetch(request);
    };
    const progress: string[] = [];
    const report = await runConformance({
      ...PROBES_ONLY,
      tier: 'read-only',
      baseUrl: standard.url,
      fetch: once,
      onProgress: (line) => progress.push(line),
    });
    expect(lines(report)).toEqual([
      'flaky: GET /v2/webhooks limit, 100: mock 200, sandbox 400 VALIDATION_ERROR',
    ]);
    expect(progress).toContain(
      '  probe GET /v2/webhooks: 1 case(s) sent again, to tell a difference that stays from one that does not',
    );
    expect(report.exitCode).toBe(0);
    const text = formatConformanceReport(report);
    expect(text).toContain(
      'flaky   GET /v2/webhooks\n          flaky: limit, 100: mock 200, sandbox 400 VALIDATION_ERROR',
    );
    expect(text).toMatch(/; probe cases: 1 flaky$/);
  }, 60_000);

  it('prints its count, the same cases and requests in every run of a seed; another seed chooses others', async () => {
    const runs = await Promise.all(
      [1, 2].map(async () => {
        const progress: string[] = [];
        const report = await runConformance({ ...PROBES_ONLY, onProgress: (line) => progress.push(line) });
        return {
          head: progress.find((line) => line.startsWith('probes: ')),
          endpoints: report.probes?.endpoints,
          requests: report.requests,
          said: report.effects.find((line) => line.startsWith('Sent ')),
        };
      }),
    );
    expect(runs[0]?.head).toMatch(
      /^probes: \d+ cases from seed 1 \(at most 24 per endpoint\), \d+ in the chosen tiers$/,
    );
    expect(runs[0]?.said).toBe(`Sent ${runs[0]?.requests} requests to the target.`);
    expect(runs[1]).toEqual(runs[0]);
    const rules = async (seed: number) =>
      (await probeCases({ seed, cap: 6 })).map((c) => `${c.endpoint} ${c.rule} ${c.tier}`);
    expect(await rules(7)).toEqual(await rules(7));
    expect(await rules(8)).not.toEqual(await rules(7));
    expect((await probeCases({ seed: 7, cap: 6 })).length).toBeLessThanOrEqual(6 * 22);
  }, 60_000);

  it('sends in the tiers chosen: read-only sends only reads, and says what it did not send', async () => {
    const report = await runConformance({ ...PROBES_ONLY, tier: 'read-only' });
    const sent = report.probes?.endpoints.filter((e) => e.compared > 0).map((e) => e.endpoint);
    expect(sent).toEqual([
      'GET /v2/users/:userId/kyc/digilocker/status',
      'GET /v2/account/activity',
      'GET /v2/webhooks',
    ]);
    expect(formatConformanceReport(report)).toMatch(
      /not sent: tier creates not chosen; tier mock-helpers not chosen/,
    );
  });

  it('on a target without the mock helpers, sends no valid developer fee (it could not be restored)', async () => {
    const sandboxFetch: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      if (new URL(request.url).pathname.startsWith('/__mock')) return new Response(null, { status: 404 });
      return fetch(request);
    };
    const report = await runConformance({
      scenarios: [],
      probes: { cap: 9 },
      baseUrl: standard.url,
      apiKey: standard.key,
      fetch: sandboxFetch,
    });
    const fee = report.probes?.endpoints.find((e) => e.endpoint === 'PUT /v2/account/developer-fee');
    expect(fee?.notSent).toBeGreaterThan(0);
    expect(fee?.why).toMatch(
      /cannot be read back and restored: sent only to a target with the mock's helpers/,
    );
    expect(lines(report)).toEqual([]);
  }, 60_000);
});

describe('the lifecycles', () => {
  it('a target whose replays are not marked Idempotent-Replayed is named on each keyed POST', async () => {
    const unmarked: typeof fetch = async (input, init) => {
      const answer = await fetch(new Request(input, init));
      const headers = new Headers(answer.headers);
      headers.delete('idempotent-replayed');
      return new Response(answer.body, { status: answer.status, headers });
    };
    const report = await runConformance({
      baseUrl: standard.url,
      fetch: unmarked,
      only: ['lifecycle.replays'],
    });
    const result = report.results.find((r) => r.id === 'lifecycle.replays');
    expect(result?.outcome).toBe('differs');
    const steps = new Set(result?.differences.map((d) => d.step));
    expect(steps).toContain('POST /v2/users replayed with its key');
    expect(steps).toContain('POST /v2/users/:userId/kyc/declaration replayed with its key');
    // No probe is sent in a run of chosen scenarios.
    expect(report.probes).toBeUndefined();
  }, 60_000);
});
