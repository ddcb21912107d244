// The whole conformance suite through a gateway that answers 1 API request in 20 with 503 before the service sees
// it: every failure is retried as the client retries it, nothing is reported as drift, the exit status is 0; and
// with one request that never succeeds, that scenario alone is "target unavailable", exit status 2.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../mock/index.js';
import { CONTRACT_PLANTS, combined, startDriftedSandbox } from '../mock/conformance/drifted-sandbox.js';
import { type RunningServer, startServer } from '../mock/server/support.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.stop());

describe('the whole suite through a flaky gateway', () => {
  it('1 request in 20 answered 503: nothing differs, nothing unavailable, exit status 0', async () => {
    const sandbox = await startDriftedSandbox(CONTRACT_PLANTS.transient503, server);
    try {
      const progress: string[] = [];
      const report = await runConformance({
        baseUrl: sandbox.url,
        apiKey: server.key,
        onProgress: (line) => progress.push(line),
      });
      expect(report.results.flatMap((r) => r.differences.map((d) => d.text))).toEqual([]);
      expect(report.counts.unavailable).toBe(0);
      expect(report.exitCode).toBe(0);
      expect(progress.filter((line) => / answered 503: retry 1 of 2$/.test(line)).length).toBeGreaterThan(5);
    } finally {
      await sandbox.close();
    }
  });

  it('and a request that never succeeds: its scenario alone is unavailable, exit status 2', async () => {
    const never = {
      intercept: (method: string, path: string) =>
        method === 'GET' && path === '/v2/webhooks' ? 503 : undefined,
    };
    const sandbox = await startDriftedSandbox(combined(CONTRACT_PLANTS.transient503, never), server);
    try {
      const report = await runConformance({ baseUrl: sandbox.url, apiKey: server.key });
      expect(report.results.flatMap((r) => r.differences.map((d) => d.text))).toEqual([]);
      expect(report.results.filter((r) => r.outcome === 'unavailable').map((r) => [r.id, r.reason])).toEqual([
        [
          'pagination.webhook-events',
          'target unavailable: GET /v2/webhooks answered 503 on each of 3 attempts',
        ],
      ]);
      expect(report.exitCode).toBe(2);
    } finally {
      await sandbox.close();
    }
  });
});
