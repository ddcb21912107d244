// A target that answers exactly what the spec shows is no drift: the standalone server in `--profile strict`
// (none of the mock's own fields and headers), with its helpers visible and with them hidden behind a proxy that
// answers 404 for /__mock, as a sandbox does. What only the mock adds is listed once, under its own heading, and
// the exit status ignores it; what the target adds beyond the contract is a line for review.
import { describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../../../mock/conformance/types.js';
import { conformanceHtml, formatConformanceReport, runConformance } from '../../../mock/index.js';
import { standaloneServer } from '../server/support.js';
import { PLANTS } from './drifted-sandbox.js';
import { startedPerTest } from './per-test.js';

const server = standaloneServer(['--profile', 'strict']);
const started = startedPerTest();

const named = (report: ConformanceReport) => [
  ...new Set(report.results.flatMap((r) => r.differences.map((d) => d.text))),
];

/** What docs/mock-only.md lists that the strict profile leaves out, as a run meets it. */
const MOCK_OWN = [
  '`X-RateLimit-Limit` header: spec 8 shows it on a 429 only; the mock sends it on every answer once the key is known',
  '`X-RateLimit-Remaining` header: spec 8 shows it on a 429 only; the mock sends it on every answer once the key is known',
  '`X-RateLimit-Reset` header: spec 8 shows it on a 429 only; the mock sends it on every answer once the key is known',
];

describe('conformance against a strict-profile target', () => {
  it('with its helpers visible: exit 0, no difference, the mock’s own listed once under its heading', async () => {
    const report = await runConformance({ baseUrl: server.url, apiKey: server.key });
    expect(named(report)).toEqual([]);
    expect(report.exitCode).toBe(0);
    expect(report.counts.differs).toBe(0);
    expect(report.counts.skipped).toBe(0);
    expect(report.mockOwn).toEqual(
      expect.arrayContaining([
        ...MOCK_OWN,
        expect.stringMatching(/^`transaction\.updatedAt` in GET \/v2\/transactions\/:transactionId: /),
        expect.stringMatching(
          /^`deposit\.requiredConfirmations` in GET \/v2\/transactions\/:transactionId: /,
        ),
        expect.stringMatching(/^`payout\.attributionStatus` in GET \/v2\/transactions\/:transactionId: /),
      ]),
    );
    expect(new Set(report.mockOwn).size).toBe(report.mockOwn.length);
    const text = formatConformanceReport(report);
    expect(text).toContain("The mock's own, not promised by the spec");
    expect(conformanceHtml(report)).toContain("<h2>The mock's own, not promised by the spec</h2>");
    expect(text.split('\n').filter((line) => line.includes('`transaction.updatedAt`'))).toHaveLength(1);
    expect(text.split('\n').at(-1)).toBe(
      `${report.results.length} scenarios: ${report.results.length} same, 0 differ, 0 skipped`,
    );
  }, 60_000);

  it('with /__mock hidden behind a proxy, as a sandbox: exit 0, no difference', async () => {
    const sandbox = await started.sandbox(PLANTS.withoutHelpers, server);
    const report = await runConformance({ baseUrl: sandbox.url, apiKey: server.key });
    expect(named(report)).toEqual([]);
    expect(report.exitCode).toBe(0);
    expect(report.counts.differs).toBe(0);
    expect(report.mockOwn).toEqual(expect.arrayContaining(MOCK_OWN));
  }, 60_000);

  it('a field the target adds beyond the contract is a line for review: exit 0, or 1 with failOnReview', async () => {
    const sandbox = await started.sandbox(
      {
        answer: (method, path, answer) => {
          const body = answer.body as { data?: Record<string, unknown> } | undefined;
          return method === 'GET' && path === '/v2/account' && body?.data
            ? { ...answer, body: { ...body, data: { ...body.data, region: 'IN' } } }
            : undefined;
        },
      },
      server,
    );
    const report = await runConformance({ baseUrl: sandbox.url, apiKey: server.key, tier: 'read-only' });
    expect(named(report)).toEqual(['GET /v2/account: `region`: mock absent, sandbox string']);
    expect(report.summary.map((s) => s.severity)).toEqual(['review']);
    expect(report.exitCode).toBe(0);
    expect(formatConformanceReport(report)).toContain(
      '          review: GET /v2/account: `region`: mock absent, sandbox string',
    );
    const failing = await runConformance({
      baseUrl: sandbox.url,
      apiKey: server.key,
      tier: 'read-only',
      only: ['account.read'],
      failOnReview: true,
    });
    expect(failing.exitCode).toBe(1);
  }, 60_000);
});
