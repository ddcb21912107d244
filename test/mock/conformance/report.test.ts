import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { compareSides } from '../../../mock/conformance/compare.js';
import { loadContractCheck } from '../../../mock/conformance/contract-problems.js';
import { summarize } from '../../../mock/conformance/report.js';
import {
  type ConformanceReport,
  conformanceHtml,
  formatConformanceReport,
  runConformance,
  type WireExchange,
} from '../../../mock/index.js';
import { runCli } from '../../../mock/server/cli.js';
import { isPlainObject } from '../../../src/shared/plain-object.js';
import { freePort, type RunningServer, standaloneServer, startServer } from '../server/support.js';
import type { Plant, ProxiedAnswer } from './drifted-sandbox.js';
import { startedPerTest } from './per-test.js';

// The report as people and CI read it: the text lines, `--json`, and the HTML page with both answers side by side,
// everything escaped; the command line exits 1 on a difference.

// compareSides checks answers against the contract, whose check loads zod's full build first.
await loadContractCheck();

function answer(body: unknown): WireExchange {
  return {
    kind: 'exchange',
    label: 'GET /v2/account',
    method: 'GET',
    path: '/v2/account',
    status: 200,
    headers: { 'content-type': 'application/json' },
    body,
  };
}

function handMade(): ConformanceReport {
  const mock = [answer({ success: true, data: { name: '<script>alert(1)</script>', id: 'a' } })];
  const sandbox = [answer({ success: true, data: { name: 'x', '<img src=x onerror=alert(1)>': 1 } })];
  const { differences } = compareSides(mock, sandbox);
  const results: ConformanceReport['results'] = [
    {
      id: 'account.read',
      title: 'Read',
      spec: '2.1',
      tier: 'read-only',
      outcome: 'differs',
      differences,
      mock,
      sandbox,
      ms: 3,
    },
    {
      id: 'auth.missing-key',
      title: 'No key',
      spec: '5.4',
      tier: 'read-only',
      outcome: 'same',
      differences: [],
      mock: [],
      sandbox: [],
      ms: 1,
    },
    {
      id: 'kyc.onboarding',
      title: 'Onboarding',
      spec: '4.3',
      tier: 'mock-helpers',
      outcome: 'skipped',
      reason: 'reading the OTP needs the mock helpers',
      differences: [],
      mock: [],
      sandbox: [],
      ms: 0,
    },
  ];
  return {
    target: 'https://sandbox.example.test/?q=<b>',
    tiers: ['read-only'],
    prefix: 'conf-00000000-',
    rateLimit: 60,
    startedAt: '2026-01-01T00:00:00.000Z',
    ok: false,
    exitCode: 1,
    counts: { same: 1, differs: 1, review: 0, flaky: 0, skipped: 1, unavailable: 0, 'not-compared': 0 },
    summary: summarize(results),
    mockOwn: [],
    effects: [],
    requests: 3,
    coverage: { endpoints: [], events: [] },
    results,
  };
}

describe('the conformance report', () => {
  it('has a line per scenario, each difference under it, and the totals', () => {
    expect(formatConformanceReport(handMade()).split('\n')).toEqual([
      'Conformance of https://sandbox.example.test/?q=<b> against the mock (run conf-00000000-)',
      'differs account.read      Read (spec 2.1)',
      '          review: GET /v2/account: `<img src=x onerror=alert(1)>`: mock absent, sandbox number',
      '          breaking: GET /v2/account: `id`: mock string, sandbox absent',
      'same    auth.missing-key  No key (spec 5.4)',
      'skipped kyc.onboarding    Onboarding (spec 4.3): reading the OTP needs the mock helpers',
      '3 scenarios: 1 same, 1 differ, 1 skipped (exit status 1)',
    ]);
  });

  it('as HTML: self-contained, both answers side by side, everything escaped', () => {
    const page = conformanceHtml(handMade());
    expect(page).not.toMatch(/<script|<img|src=["']?http|<link/i);
    expect(page).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(page).toContain('`&#60;img src=x onerror=alert(1)&#62;`: mock absent, sandbox number');
    expect(page).toContain('<h3>mock</h3>');
    expect(page).toContain('<h3>sandbox</h3>');
    // One side-by-side pair for the one answer that differs, listing both of its differences.
    expect(page.match(/class="pair"/g)).toHaveLength(1);
    expect(page).toContain(
      '<strong>1 same, 1 differ (breaking), 0 for review, 0 flaky, 1 skipped, 0 not compared</strong>, exit status 1',
    );
    expect(page).toContain('<li>breaking: GET /v2/account: `id`: mock string, sandbox absent</li>');
    expect(page).toContain('reading the OTP needs the mock helpers');
  });
});

describe('inr-payouts-mock conformance', () => {
  let server: RunningServer;
  let proxy: Server;
  let drifted = '';
  let dir = '';
  beforeAll(async () => {
    server = await startServer();
    dir = mkdtempSync(join(tmpdir(), 'inr-payouts-conformance-'));
    // A target whose credit read names a field otherwise: everything else passes through unchanged.
    const upstream = new URL(server.url);
    proxy = createServer((incoming, outgoing) => {
      const forward = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          path: incoming.url,
          method: incoming.method,
          headers: incoming.headers,
        },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => {
            let text = Buffer.concat(chunks).toString();
            if (incoming.url === '/v2/account/credit') text = text.replace('"availableUsd"', '"available"');
            const headers = { ...answer.headers };
            delete headers['content-length'];
            outgoing.writeHead(answer.statusCode ?? 502, headers).end(text);
          });
        },
      );
      incoming.pipe(forward);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    drifted = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  }, 30_000);
  afterAll(async () => {
    proxy?.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints progress to stderr and the report to stdout, writes --json, and exits 0 when nothing differs', async () => {
    const out = vi.spyOn(console, 'log').mockImplementation(() => {});
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const json = join(dir, 'clean.json');
      const code = await runCli([
        'conformance',
        '--base-url',
        server.url,
        '--tier',
        'read-only,creates',
        '--json',
        json,
      ]);
      expect(code).toBe(0);
      const printed = out.mock.calls.map((c) => String(c[0])).join('\n');
      expect(printed).toMatch(/^Conformance of http:\/\/127\.0\.0\.1:\d+ against the mock/);
      expect(printed).toMatch(/\d+ scenarios: \d+ same, 0 differ, \d+ skipped$/);
      expect(err.mock.calls[0]?.[0]).toMatch(
        /^conformance: http:\/\/127\.0\.0\.1:\d+, tiers read-only, creates,/,
      );
      const report = JSON.parse(readFileSync(json, 'utf8')) as ConformanceReport;
      expect(report.ok).toBe(true);
      expect(report.tiers).toEqual(['read-only', 'creates']);
      expect(report.results.find((r) => r.tier === 'mock-helpers')?.reason).toBe(
        'tier mock-helpers not chosen',
      );
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  }, 60_000);

  it('names a difference, writes both reports, and exits 1', async () => {
    const out = vi.spyOn(console, 'log').mockImplementation(() => {});
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const json = join(dir, 'drift.json');
      const html = join(dir, 'drift.html');
      const run = runCli([
        'conformance',
        '--base-url',
        drifted,
        '--api-key',
        server.key,
        '--only',
        'account.',
        '--json',
        json,
        '--html',
        html,
      ]);
      expect(await run).toBe(1);
      expect(err.mock.calls.map((c) => String(c[0]))).toContain(
        'conformance: 1 scenario(s) differ from the mock in a way that breaks code',
      );
      const report = JSON.parse(readFileSync(json, 'utf8')) as ConformanceReport;
      const texts = report.results.flatMap((r) => r.differences.map((d) => `${r.id}: ${d.text}`));
      expect(texts).toEqual([
        'account.credit: GET /v2/account/credit: `available`: mock absent, sandbox string',
        'account.credit: GET /v2/account/credit: `availableUsd`: mock string, sandbox absent',
      ]);
      const page = readFileSync(html, 'utf8');
      expect(page).toContain('`availableUsd`: mock string, sandbox absent');
      expect(page).toMatch(/<h3>sandbox<\/h3><pre>GET \/v2\/account\/credit → 200[\s\S]*&#34;available&#34;/);
      expect(out.mock.calls.map((c) => String(c[0])).join('\n')).toContain('differs account.credit');
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  }, 60_000);

  it('refuses bad options with the usage, exit status 2 (could not run, never "differs")', async () => {
    await expect(runCli(['conformance'])).rejects.toThrow(
      /Give the target with --base-url\.\n\nUsage: inr-payouts-mock conformance/,
    );
    await expect(runCli(['conformance', '--base-url', server.url, '--tier', 'all'])).rejects.toThrow(
      /--tier must be read-only, creates, mock-helpers; got all/,
    );
    await expect(runCli(['conformance', '--base-url', server.url, '--api-key', 'pk_live_x'])).rejects.toThrow(
      /Refusing a pk_live_ key/,
    );
    for (const argv of [
      [],
      ['--base-url', server.url, '--tier', 'all'],
      ['--base-url', server.url, '--timeout', '0'],
    ])
      await expect(runCli(['conformance', ...argv])).rejects.toMatchObject({ exitCode: 2 });
  });
});

describe("severity and the run's limits, against a drifted sandbox", () => {
  // Each line says what it means for a partner's code, and the exit status follows the most severe: a new enum
  // value is for review (exit 0), a removed field breaks (exit 1), a difference that does not come back when the
  // scenario is sent again is flaky (exit 0). What is the run's own limit is never drift: an upload URL on another
  // host is followed, and a receiver the target cannot reach is "not compared" (exit 2) with the advice.

  const server = standaloneServer();
  const started = startedPerTest();

  /** The account read with its `data` changed by `change`. */
  const accountRead =
    (change: (data: Record<string, unknown>) => Record<string, unknown>): Plant['answer'] =>
    (method: string, path: string, answer: ProxiedAnswer) => {
      const body = isPlainObject(answer.body) ? answer.body : undefined;
      if (method !== 'GET' || path !== '/v2/account' || !isPlainObject(body?.data)) return undefined;
      return { ...answer, body: { ...body, data: change(body.data) } };
    };

  const lines = (report: ConformanceReport) =>
    report.results.flatMap((r) => r.differences.map((d) => `${d.severity}: ${d.text}`));

  describe('severity that matches the SDK', () => {
    it('a new enum value is a line for review: exit 0, or 1 with failOnReview', async () => {
      const plant = accountRead((data) => ({ ...data, environment: 'staging' }));
      const sandbox = await started.sandbox({ answer: plant }, server);
      const only = ['account.read'];
      const report = await runConformance({ baseUrl: sandbox.url, apiKey: server.key, only });
      expect(lines(report)).toEqual([
        expect.stringMatching(
          /^review: GET \/v2\/account: `environment` value: mock one of .*, sandbox "staging"$/,
        ),
      ]);
      expect(report.results[0]?.outcome).toBe('review');
      expect(report.exitCode).toBe(0);
      expect(formatConformanceReport(report)).toMatch(
        /^ {10}review: GET \/v2\/account: `environment` value/m,
      );
      const failing = await runConformance({
        baseUrl: sandbox.url,
        apiKey: server.key,
        only,
        failOnReview: true,
      });
      expect(failing.exitCode).toBe(1);
    }, 60_000);

    it("a removed field breaks a partner's code: exit 1", async () => {
      const plant = accountRead(({ name: _name, ...data }) => data);
      const sandbox = await started.sandbox({ answer: plant }, server);
      const report = await runConformance({
        baseUrl: sandbox.url,
        apiKey: server.key,
        only: ['account.read'],
      });
      expect(lines(report)).toEqual(['breaking: GET /v2/account: `name`: mock string, sandbox absent']);
      expect(report.results[0]?.outcome).toBe('differs');
      expect(report.exitCode).toBe(1);
      expect(formatConformanceReport(report)).toContain(
        '          breaking: GET /v2/account: `name`: mock string, sandbox absent',
      );
    }, 60_000);

    it('a difference that does not come back when the scenario is sent again is flaky, not drift: exit 0', async () => {
      // The run reads the account first for its rate limit; the scenario's read is the second, its re-send the third.
      let reads = 0;
      const once: Plant['answer'] = (method, path, answer) => {
        const changed = accountRead(({ name: _name, ...data }) => data)?.(method, path, answer);
        if (changed) reads += 1;
        return reads === 2 ? changed : undefined;
      };
      const sandbox = await started.sandbox({ answer: once }, server);
      const progress: string[] = [];
      const report = await runConformance({
        baseUrl: sandbox.url,
        apiKey: server.key,
        only: ['account.read'],
        onProgress: (line) => progress.push(line),
      });
      expect(lines(report)).toEqual(['flaky: GET /v2/account: `name`: mock string, sandbox absent']);
      expect(report.results[0]?.outcome).toBe('flaky');
      expect(report.counts.flaky).toBe(1);
      expect(report.exitCode).toBe(0);
      expect(progress).toContain(
        '  account.read: sent again, to tell a difference that stays from one that does not',
      );
    }, 60_000);
  });

  describe("the run's own limits are never drift", () => {
    it('an upload URL the target hands out on another host is followed, and the scenario is the same', async () => {
      const puts: string[] = [];
      // Another host (another origin) that stores what it is sent on the server, as a presigned storage URL would.
      const storage = await started.listen(async (req, res) => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        puts.push(`${req.method} ${req.url}`);
        const answer = await fetch(new URL(req.url ?? '/', server.origin), {
          method: req.method ?? 'PUT',
          headers: { 'content-type': req.headers['content-type'] ?? 'application/octet-stream' },
          body: Buffer.concat(chunks),
        });
        res.writeHead(answer.status).end(Buffer.from(await answer.arrayBuffer()));
      });
      const elsewhere: Plant['answer'] = (method, path, answer) => {
        const body = isPlainObject(answer.body) ? answer.body : undefined;
        const data = isPlainObject(body?.data) ? body.data : undefined;
        if (
          method !== 'POST' ||
          !path.endsWith('/kyc/document/upload-url') ||
          typeof data?.uploadUrl !== 'string'
        )
          return undefined;
        const url = new URL(data.uploadUrl);
        return {
          ...answer,
          body: { ...body, data: { ...data, uploadUrl: `${storage}${url.pathname}${url.search}` } },
        };
      };
      const sandbox = await started.sandbox({ answer: elsewhere }, server);
      const report = await runConformance({
        baseUrl: sandbox.url,
        apiKey: server.key,
        only: ['kyc.every-step'],
      });
      expect(report.results.map((r) => [r.id, r.outcome, r.reason])).toEqual([
        ['kyc.every-step', 'same', undefined],
      ]);
      expect(puts).toEqual([expect.stringMatching(/^PUT \/__uploads\//)]);
      const upload = report.results[0]?.sandbox.find((o) => o.kind === 'exchange' && o.method === 'PUT');
      expect(upload).toMatchObject({ label: 'PUT <upload URL>', status: 200 });
    }, 60_000);

    it('a receiver the target cannot reach: "not compared", exit 2, with the advice; one it reaches compares', async () => {
      const port = await freePort();
      const unreachable = await runConformance({
        baseUrl: server.url,
        apiKey: server.key,
        only: ['webhooks.delivery'],
        // Nothing listens there: the target's deliveries never arrive, as a container's to the host's loopback.
        receiverUrl: `http://127.0.0.1:${await freePort()}/webhooks`,
        receiverPort: port,
      });
      const [result] = unreachable.results;
      expect(result?.outcome).toBe('not-compared');
      expect(result?.differences).toEqual([]);
      expect(result?.reason).toMatch(
        /^not compared: the target delivered nothing to the run's receiver at http:\/\/127\.0\.0\.1:\d+\/webhooks, so it could not reach it\. Give a URL it can reach with --receiver-url \(a target in a container: http:\/\/host\.containers\.internal:\d+\/webhooks\), the receiver listening on 127\.0\.0\.1:\d+ \(--receiver-port\)$/,
      );
      expect(unreachable.exitCode).toBe(2);
      expect(formatConformanceReport(unreachable)).toMatch(/1 not compared \(exit status 2/);

      const reached = await runConformance({
        baseUrl: server.url,
        apiKey: server.key,
        only: ['webhooks.'],
        receiverUrl: `http://127.0.0.1:${port}/webhooks`,
        receiverPort: port,
      });
      expect(reached.results.map((r) => [r.id, r.outcome])).toEqual([
        ['webhooks.delivery', 'same'],
        ['webhooks.order', 'same'],
        ['webhooks.every-event', 'same'],
        ['webhooks.retries', 'same'],
      ]);
      expect(reached.exitCode).toBe(0);
    }, 60_000);
  });
});
