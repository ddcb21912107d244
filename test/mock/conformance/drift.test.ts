// Proof that the conformance check finds drift: the standalone server behind a proxy that plants one realistic
// difference at a time (test/mock/conformance/drifted-sandbox.ts). Each planted difference is named, and nothing else
// is reported; the clean proxy and the in-process mock report no difference at all.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceOptions, ConformanceReport } from '../../../mock/conformance/types.js';
import { runConformance } from '../../../mock/index.js';
import { WEBHOOK_EVENT_TYPES } from '../../../src/webhooks/index.js';
import { type RunningServer, startServer } from '../server/support.js';
import {
  CONTRACT_PLANTS,
  combined,
  type DriftedSandbox,
  PLANTS,
  type Plant,
  RESPELLED,
  startDriftedSandbox,
} from './drifted-sandbox.js';

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
/** Every distinct difference of a run, once. */
const distinct = (report: ConformanceReport) => [...new Set(named(report))];

async function checkBehind(plant?: Plant, options: ConformanceOptions = {}): Promise<ConformanceReport> {
  sandbox = await startDriftedSandbox(plant, server);
  const report = await runConformance({ baseUrl: sandbox.url, apiKey: sandbox.server.key, ...options });
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
  }, 60_000);

  it('the standalone server behind the clean proxy: no difference', async () => {
    const report = await checkBehind();
    expect(named(report)).toEqual([]);
    expect(report.counts.same).toBe(report.results.length);
  }, 60_000);

  it('a target without the helpers, like a sandbox: the webhook scenarios skip with the reason, nothing differs', async () => {
    sandbox = await startDriftedSandbox(PLANTS.withoutHelpers, server);
    const report = await runConformance({ baseUrl: sandbox.url, apiKey: sandbox.server.key });
    const skipped = report.results.filter((r) => r.id.startsWith('webhooks.'));
    expect(skipped.map((r) => [r.id, r.outcome])).toEqual([
      ['webhooks.delivery', 'skipped'],
      ['webhooks.order', 'skipped'],
      ['webhooks.every-event', 'skipped'],
      ['webhooks.retries', 'skipped'],
    ]);
    for (const r of skipped)
      expect(r.reason).toBe(
        "pointing the webhook URL at a local receiver and moving the clock needs the mock's test helpers (/__mock), which this target has not",
      );
    expect(named(report)).toEqual([]);
  }, 60_000);

  it('a renamed field and an extra field in a webhook payload: each named', async () => {
    const report = await checkBehind(PLANTS.renamedAndExtraField, { only: ['webhooks.'] });
    expect(distinct(report)).toEqual([
      'transaction.payout_completed delivery: envelope: `data.receiverName`: mock absent, sandbox string',
      'transaction.payout_completed delivery: envelope: `data.receiver_name`: mock string, sandbox absent',
      'transaction.payout_completed delivery: envelope: `data.settledAt`: mock absent, sandbox string',
    ]);
    expect(report.ok).toBe(false);
  });

  it('a renamed field in the account, which also paces the run: named, and the run still starts', async () => {
    const report = await checkBehind(PLANTS.renamedAccountField, { only: ['account.', 'rate-limit.'] });
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
    const report = await checkBehind(PLANTS.statusCode, { only: ['transactions.'] });
    expect(named(report)).toEqual(['POST /v2/transactions: status: mock 422, sandbox 400']);
  });

  it('a changed error identifier', async () => {
    const report = await checkBehind(PLANTS.errorIdentifier, { only: ['transactions.'] });
    expect(named(report)).toEqual([
      'POST /v2/transactions: error identifier `code`: mock `AMOUNT_TOO_LOW`, sandbox `AMOUNT_BELOW_MINIMUM`',
    ]);
  });

  it('error shape A where the mock answers shape B', async () => {
    const report = await checkBehind(PLANTS.errorShape, { only: ['kyc.'] });
    expect(named(report)).toEqual([
      'POST /v2/users/:userId/kyc/declaration: error shape: mock shape B, sandbox shape A',
    ]);
  });

  it('a slower webhook retry schedule', async () => {
    const report = await checkBehind(PLANTS.slowerRetries, { only: ['webhooks.retries'] });
    expect(named(report)).toEqual(['seconds before each retry: value: mock [1,2,4,8], sandbox [2,4,8,16]']);
    expect(report.results.find((r) => r.outcome === 'differs')?.id).toBe('webhooks.retries');
  });

  it('a webhook signature over another clock', async () => {
    const report = await checkBehind(PLANTS.skewedSignature, { only: ['webhooks.'] });
    expect(named(report)).toEqual([
      'user.created delivery: signature under verifyWebhook, on arrival: value: mock "valid", sandbox "timestamp_out_of_tolerance"',
      'each of them at the receiver, under verifyWebhook: value: mock ["valid"], sandbox ["timestamp_out_of_tolerance"]',
      'every delivery under verifyWebhook, on arrival: value: mock ["valid"], sandbox ["timestamp_out_of_tolerance"]',
    ]);
  });
});

/** As a sandbox looks: no helpers, so only what the API answers (the deliveries need `--guided`). */
async function checkAsSandbox(plant: Plant, only: string[]): Promise<ConformanceReport> {
  sandbox = await startDriftedSandbox(combined(PLANTS.withoutHelpers, plant), server);
  return runConformance({ baseUrl: sandbox.url, apiKey: sandbox.server.key, only });
}

describe('a standalone server started with --webhook-url', () => {
  let withUrl: RunningServer | undefined;
  let receiver: Server | undefined;
  afterAll(async () => {
    await withUrl?.stop();
    receiver?.closeAllConnections();
    receiver?.close();
  });

  it("reports no difference: the reference never takes the target's settings, and the run says where its events went", async () => {
    const delivered: string[] = [];
    receiver = createServer((req, res) => {
      req.resume();
      delivered.push(String(req.headers['x-service-event-id']));
      res.writeHead(200).end();
    });
    await new Promise<void>((resolve) => receiver?.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    withUrl = await startServer(['--webhook-url', url]);
    const progress: string[] = [];
    const report = await runConformance({
      baseUrl: withUrl.url,
      // What reads or uses the account's settings, and what delivers to its URL.
      only: ['account.', 'idempotency.', 'pagination.', 'webhooks.'],
      onProgress: (line) => progress.push(line),
    });
    expect(named(report)).toEqual([]);
    expect(report.exitCode).toBe(0);
    expect(report.effects).toContain(`Their events will be delivered to the account's webhook URL, ${url}.`);
    expect(report.effects).toContain(`Their events went to the account's webhook URL, ${url}.`);
    expect(progress).toContain(`  Their events went to the account's webhook URL, ${url}.`);
    // The account's own URL is put back after each webhook scenario.
    const account = await withUrl.helper('accounts/get');
    expect((account.body.data as { webhookUrl?: string }).webhookUrl).toBe(url);
  }, 60_000);
});

describe('conformance names what only the contract can tell, and never reads a failed run as drift', () => {
  it('a timestamp in another format: named as its field and format', async () => {
    const report = await checkBehind(CONTRACT_PLANTS.timestampFormat, {
      only: ['transactions.', 'webhooks.order'],
    });
    expect(distinct(report)).toEqual([
      'GET /v2/transactions/:transactionId: `transaction.createdAt` format: mock date-time, sandbox decimal',
    ]);
  });

  it('a new enum value nested in an answer: named with the values the contract lists', async () => {
    const report = await checkBehind(CONTRACT_PLANTS.nestedEnum, {
      only: ['transactions.', 'webhooks.order'],
    });
    expect(distinct(report)).toEqual([
      'GET /v2/transactions/:transactionId: `deposit.network` value: mock one of "polygon", "ethereum", "arbitrum", "base", "solana" (as the contract lists), sandbox "polygon_pos"',
    ]);
    const asSandbox = await checkAsSandbox(CONTRACT_PLANTS.nestedEnum, [
      'validation.transactions',
      'transactions.',
    ]);
    expect(distinct(asSandbox)).toEqual([]);
  });

  it('a field missing from one item of a list: named with the count', async () => {
    const report = await checkBehind(CONTRACT_PLANTS.listItem, { only: ['idempotency.', 'pagination.'] });
    expect(distinct(report)).toEqual([
      expect.stringMatching(
        /^GET \/v2\/webhooks: `\[\]\.status`: mock on every item, sandbox absent on 1 of \d+ items$/,
      ),
    ]);
    // A sandbox holds earlier data: events the reference's fresh account has not.
    sandbox = await startDriftedSandbox(combined(PLANTS.withoutHelpers, CONTRACT_PLANTS.listItem), server);
    for (const mobile of ['9000000001', '9000000002', '9000000003'])
      await server.call('POST', '/v2/users', { mobile });
    const asSandbox = await runConformance({
      baseUrl: sandbox.url,
      apiKey: server.key,
      only: ['pagination.'],
    });
    expect(distinct(asSandbox)).toEqual([
      expect.stringMatching(
        /^GET \/v2\/webhooks: `\[\]\.status`: mock on every item, sandbox absent on 1 of 3 items$/,
      ),
    ]);
  });

  it('a field added to every event type: named in each of the ten payloads', async () => {
    const report = await checkBehind(CONTRACT_PLANTS.everyEventType, { only: ['webhooks.'] });
    expect(distinct(report).sort()).toEqual(
      WEBHOOK_EVENT_TYPES.map(
        (type) => `${type} delivery: envelope: \`data.region\`: mock absent, sandbox string`,
      ).sort(),
    );
  });

  it('a field respelled in every event type: both spellings named in each of the ten payloads', async () => {
    const report = await checkBehind(CONTRACT_PLANTS.respelledInEveryEventType, { only: ['webhooks.'] });
    expect(distinct(report).sort()).toEqual(
      WEBHOOK_EVENT_TYPES.flatMap((type) => {
        const [from, to] = RESPELLED[type];
        const kind = type === 'user.kyc_updated' ? 'object' : 'string';
        return [
          `${type} delivery: envelope: \`data.${to}\`: mock absent, sandbox ${kind}`,
          `${type} delivery: envelope: \`data.${from}\`: mock ${kind}, sandbox absent`,
        ];
      }).sort(),
    );
  });

  it('a header in another unit: one line, however many requests carry it', async () => {
    const report = await checkBehind(CONTRACT_PLANTS.headerUnit, {
      only: ['account.', 'kyc.', 'rate-limit.'],
    });
    expect(report.summary.map((s) => s.text)).toEqual([
      expect.stringMatching(
        /^`X-RateLimit-Reset` header: mock an integer, Unix time in seconds, sandbox an integer, Unix time in milliseconds \(on GET \/v2\/account, .*\), seen \d+ times in account\.read, /,
      ),
    ]);
    expect(report.summary[0]?.count).toBeGreaterThan(10);
  });

  it('1 request in 20 answered 503 by a gateway: retried, nothing reported, exit status 0', async () => {
    const report = await checkBehind(CONTRACT_PLANTS.transient503, {
      backoff: 0,
      only: ['account.', 'idempotency.', 'kyc.', 'transactions.'],
    });
    expect(named(report)).toEqual([]);
    expect(report.exitCode).toBe(0);
  });

  it('a stalled request: the scenario is "target unavailable", nothing else is reported, exit status 2', async () => {
    sandbox = await startDriftedSandbox(CONTRACT_PLANTS.stalledRequest, server);
    const report = await runConformance({
      baseUrl: sandbox.url,
      apiKey: sandbox.server.key,
      only: ['account.'],
      timeoutMs: 300,
      backoff: 0,
    });
    expect(named(report)).toEqual([]);
    expect(
      report.results.filter((r) => r.outcome !== 'same').map((r) => [r.id, r.outcome, r.reason]),
    ).toEqual([
      [
        'account.credit',
        'unavailable',
        'target unavailable: GET /v2/account/credit gave no answer in 0.3 s on each of 3 attempts',
      ],
    ]);
    expect(report.exitCode).toBe(2);
  });
});
