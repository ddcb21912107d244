// Proof that the conformance check finds drift: the standalone server behind a proxy that plants one realistic
// difference at a time (test/conformance/drifted-sandbox.ts). Each planted difference is named, and nothing else
// is reported; the clean proxy and the in-process mock report no difference at all.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../../mock/conformance/types.js';
import { runConformance } from '../../mock/index.js';
import { type RunningServer, startServer } from '../mock/server/support.js';
import { type DriftedSandbox, PLANTS, type Plant, startDriftedSandbox } from './drifted-sandbox.js';

// One standalone server for every plant, emptied before each (startDriftedSandbox resets it).
let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
}, 30_000);
afterAll(() => server?.stop());
let sandbox: DriftedSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/** Every difference the report names, as printed. */
const named = (report: ConformanceReport) => report.results.flatMap((r) => r.differences.map((d) => d.text));

async function checkBehind(plant?: Plant): Promise<ConformanceReport> {
  sandbox = await startDriftedSandbox(plant, server);
  const report = await runConformance({ baseUrl: sandbox.url, apiKey: sandbox.server.key });
  // Nothing was skipped: the proxy passes the helpers through, so every tier ran on both sides.
  expect(report.results.filter((r) => r.outcome === 'skipped').map((r) => `${r.id}: ${r.reason}`)).toEqual(
    [],
  );
  return report;
}

describe('conformance against a drifted sandbox', () => {
  it('the in-process mock against itself: no difference', async () => {
    const report = await runConformance();
    expect(named(report)).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('the standalone server behind the clean proxy: no difference', async () => {
    const report = await checkBehind();
    expect(named(report)).toEqual([]);
    expect(report.counts.same).toBe(report.results.length);
  });

  it('a target without the helpers, like a sandbox: the webhook scenarios skip with the reason, nothing differs', async () => {
    sandbox = await startDriftedSandbox(PLANTS.withoutHelpers, server);
    const report = await runConformance({ baseUrl: sandbox.url, apiKey: sandbox.server.key });
    const skipped = report.results.filter((r) => r.id.startsWith('webhooks.'));
    expect(skipped.map((r) => [r.id, r.outcome])).toEqual([
      ['webhooks.delivery', 'skipped'],
      ['webhooks.order', 'skipped'],
      ['webhooks.retries', 'skipped'],
    ]);
    for (const r of skipped)
      expect(r.reason).toBe(
        "pointing the webhook URL at a local receiver and moving the clock needs the mock's test helpers (/__mock), which this target has not",
      );
    expect(named(report)).toEqual([]);
  });

  it('a renamed field and an extra field in a webhook payload: each named', async () => {
    const report = await checkBehind(PLANTS.renamedAndExtraField);
    expect(named(report)).toEqual([
      'transaction.payout_completed delivery: envelope: `data.receiverName`: mock absent, sandbox string',
      'transaction.payout_completed delivery: envelope: `data.receiver_name`: mock string, sandbox absent',
      'transaction.payout_completed delivery: envelope: `data.settledAt`: mock absent, sandbox string',
    ]);
    expect(report.ok).toBe(false);
  });

  it('a renamed field in the account, which also paces the run: named, and the run still starts', async () => {
    const report = await checkBehind(PLANTS.renamedAccountField);
    const renamed = [
      'GET /v2/account: `volume.monthlyUSD`: mock absent, sandbox number',
      'GET /v2/account: `volume.monthlyUsd`: mock number, sandbox absent',
    ];
    // Every scenario that reads the account names the rename, and only those.
    const differing = report.results.filter((r) => r.outcome === 'differs');
    expect(differing.map((r) => r.id)).toEqual(['account.read', 'rate-limit.headers', 'rate-limit.exceeded']);
    for (const r of differing) expect([...new Set(r.differences.map((d) => d.text))]).toEqual(renamed);
  });

  it('a different status code', async () => {
    const report = await checkBehind(PLANTS.statusCode);
    expect(named(report)).toEqual(['POST /v2/transactions: status: mock 422, sandbox 400']);
  });

  it('a changed error identifier', async () => {
    const report = await checkBehind(PLANTS.errorIdentifier);
    expect(named(report)).toEqual([
      'POST /v2/transactions: error identifier `code`: mock `AMOUNT_TOO_LOW`, sandbox `AMOUNT_BELOW_MINIMUM`',
    ]);
  });

  it('error shape A where the mock answers shape B', async () => {
    const report = await checkBehind(PLANTS.errorShape);
    expect(named(report)).toEqual([
      'POST /v2/users/:userId/kyc/declaration: error shape: mock shape B, sandbox shape A',
    ]);
  });

  it('a slower webhook retry schedule', async () => {
    const report = await checkBehind(PLANTS.slowerRetries);
    expect(named(report)).toEqual(['seconds before each retry: value: mock [1,2,4,8], sandbox [2,4,8,16]']);
    expect(report.results.find((r) => r.outcome === 'differs')?.id).toBe('webhooks.retries');
  });

  it('a webhook signature over another clock', async () => {
    const report = await checkBehind(PLANTS.skewedSignature);
    expect(named(report)).toEqual([
      'user.created delivery: signature under verifyWebhook, on arrival: value: mock "valid", sandbox "timestamp_out_of_tolerance"',
      'each of them at the receiver, under verifyWebhook: value: mock ["valid"], sandbox ["timestamp_out_of_tolerance"]',
    ]);
  });
});
