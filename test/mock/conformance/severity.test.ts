// Each line says what it means for a partner's code, and the exit status follows the most severe: a new enum
// value is for review (exit 0), a removed field breaks (exit 1), a difference that does not come back when the
// scenario is sent again is flaky (exit 0). What is the run's own limit is never drift: an upload URL on another
// host is followed, and a receiver the target cannot reach is "not compared" (exit 2) with the advice.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../../../mock/conformance/types.js';
import { formatConformanceReport, runConformance } from '../../../mock/index.js';
import { type RunningServer, startServer } from '../server/support.js';
import {
  type DriftedSandbox,
  type Plant,
  type ProxiedAnswer,
  startDriftedSandbox,
} from './drifted-sandbox.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
}, 30_000);
afterAll(() => server?.stop());
let sandbox: DriftedSandbox | undefined;
let other: Server | undefined;
afterEach(async () => {
  await sandbox?.close();
  other?.closeAllConnections();
  await new Promise<void>((resolve) => (other ? other.close(() => resolve()) : resolve()));
  sandbox = undefined;
  other = undefined;
});

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The account read with its `data` changed by `change`. */
const accountRead =
  (change: (data: Record<string, unknown>) => Record<string, unknown>): Plant['answer'] =>
  (method: string, path: string, answer: ProxiedAnswer) => {
    const body = isRecord(answer.body) ? answer.body : undefined;
    if (method !== 'GET' || path !== '/v2/account' || !isRecord(body?.data)) return undefined;
    return { ...answer, body: { ...body, data: change(body.data) } };
  };

const lines = (report: ConformanceReport) =>
  report.results.flatMap((r) => r.differences.map((d) => `${d.severity}: ${d.text}`));

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('severity that matches the SDK', () => {
  it('a new enum value is a line for review: exit 0, or 1 with failOnReview', async () => {
    const plant = accountRead((data) => ({ ...data, environment: 'staging' }));
    sandbox = await startDriftedSandbox({ answer: plant }, server);
    const only = ['account.read'];
    const report = await runConformance({ baseUrl: sandbox.url, apiKey: server.key, only });
    expect(lines(report)).toEqual([
      expect.stringMatching(
        /^review: GET \/v2\/account: `environment` value: mock one of .*, sandbox "staging"$/,
      ),
    ]);
    expect(report.results[0]?.outcome).toBe('review');
    expect(report.exitCode).toBe(0);
    expect(formatConformanceReport(report)).toMatch(/^ {10}review: GET \/v2\/account: `environment` value/m);
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
    sandbox = await startDriftedSandbox({ answer: plant }, server);
    const report = await runConformance({ baseUrl: sandbox.url, apiKey: server.key, only: ['account.read'] });
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
    sandbox = await startDriftedSandbox({ answer: once }, server);
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
    other = createServer(async (req, res) => {
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
    await new Promise<void>((resolve) => other?.listen(0, '127.0.0.1', resolve));
    const storage = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    const elsewhere: Plant['answer'] = (method, path, answer) => {
      const body = isRecord(answer.body) ? answer.body : undefined;
      const data = isRecord(body?.data) ? body.data : undefined;
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
    sandbox = await startDriftedSandbox({ answer: elsewhere }, server);
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
