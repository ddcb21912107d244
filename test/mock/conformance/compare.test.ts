import { afterAll, describe, expect, it } from 'vitest';
import { compareSides } from '../../../mock/conformance/compare.js';
import { loadContractCheck } from '../../../mock/conformance/contract-problems.js';
import { summarize } from '../../../mock/conformance/report.js';
import type { ConformanceOptions, ConformanceReport } from '../../../mock/conformance/types.js';
import {
  compareObservations,
  type Observation,
  runConformance,
  type WireExchange,
} from '../../../mock/index.js';
import { WEBHOOK_EVENT_TYPES } from '../../../src/webhooks/index.js';
import { type RunningServer, standaloneServer, startServer } from '../server/support.js';
import { CONTRACT_PLANTS, combined, PLANTS, type Plant, RESPELLED } from './drifted-sandbox.js';
import { startedPerTest } from './per-test.js';

// The comparison on hand-made pairs: each kind of difference it names, and the values it must not name.

// compareSides checks answers against the contract, whose check loads zod's full build first.
await loadContractCheck();

const differencesOf = (mock: readonly Observation[], sandbox: readonly Observation[]) =>
  compareSides(mock, sandbox).differences;

function exchange(status: number, body: unknown, headers: Record<string, string> = {}): WireExchange {
  return {
    kind: 'exchange',
    label: 'GET /v2/transactions/:transactionId',
    method: 'GET',
    path: '/v2/transactions/:transactionId',
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body,
  };
}

const texts = (mock: Observation[], sandbox: Observation[]) =>
  differencesOf(mock, sandbox).map((d) => d.text);

const transaction = {
  success: true,
  data: {
    transaction: { id: 'txn_1', status: 'completed', createdAt: '2025-01-01T00:00:00.000Z' },
    deposit: { network: 'polygon', confirmations: 128, expectedAmount: '100.00' },
    payout: { allocations: [{ dealId: 'deal_1', rate: '83.10' }] },
  },
};

describe('compareObservations', () => {
  it('names nothing when only values differ: IDs, timestamps, amounts, messages, header values', async () => {
    const other = structuredClone(transaction);
    other.data.transaction.id = 'txn_other';
    other.data.transaction.createdAt = '2026-11-25T22:00:00.000Z';
    other.data.deposit.confirmations = 3;
    other.data.deposit.expectedAmount = '9999.99';
    const a = exchange(200, transaction, { 'x-ratelimit-remaining': '599' });
    const b = exchange(200, other, { 'x-ratelimit-remaining': '12' });
    expect(await compareObservations([a], [b])).toEqual([]);
  });

  it('names a field missing on one side with its type and the step', () => {
    const other = structuredClone(transaction) as { data: { deposit: Record<string, unknown> } };
    delete other.data.deposit.confirmations;
    expect(texts([exchange(200, transaction)], [exchange(200, other)])).toEqual([
      'GET /v2/transactions/:transactionId: `deposit.confirmations`: mock number, sandbox absent',
    ]);
  });

  it('names a renamed field as one absent and one extra, and a changed type', () => {
    const other = structuredClone(transaction) as { data: { deposit: Record<string, unknown> } };
    delete other.data.deposit.confirmations;
    other.data.deposit.confirmationCount = 128;
    other.data.deposit.expectedAmount = 100;
    expect(texts([exchange(200, transaction)], [exchange(200, other)])).toEqual([
      'GET /v2/transactions/:transactionId: `deposit.confirmationCount`: mock absent, sandbox number',
      'GET /v2/transactions/:transactionId: `deposit.confirmations`: mock number, sandbox absent',
      'GET /v2/transactions/:transactionId: `deposit.expectedAmount`: mock string, sandbox number',
    ]);
  });

  it("names a field inside an array's items, and an envelope field", () => {
    const other = structuredClone(transaction) as {
      message?: string;
      data: { payout: { allocations: Record<string, unknown>[] } };
    };
    other.message = 'ok';
    other.data.payout.allocations = [{ dealId: 'deal_1', rate: 83.1 }];
    expect(texts([exchange(200, transaction)], [exchange(200, other)])).toEqual([
      'GET /v2/transactions/:transactionId: `payout.allocations[].rate`: mock string, sandbox number',
      'GET /v2/transactions/:transactionId: `body.message`: mock absent, sandbox string',
    ]);
  });

  it('says nothing of the items of an empty list, nor of fields only some items have', () => {
    const list = (items: unknown[]) => exchange(200, { success: true, data: items });
    expect(texts([list([])], [list([{ id: 'evt_1' }])])).toEqual([]);
    const user = { id: 'evt_1', eventType: 'user.created' };
    const txn = { id: 'evt_2', eventType: 'transaction.created', transactionId: 'txn_1' };
    expect(texts([list([user])], [list([user, txn])])).toEqual([]);
    // Every item of one side has it and no item of the other: that is not the account's history.
    expect(texts([list([txn])], [list([user])])).toEqual([
      'GET /v2/transactions/:transactionId: `[].transactionId`: mock string, sandbox absent',
    ]);
  });

  it('names a status code', () => {
    expect(texts([exchange(200, transaction)], [exchange(201, transaction)])).toEqual([
      'GET /v2/transactions/:transactionId: status: mock 200, sandbox 201',
    ]);
  });

  it('names the error shape once, not every field of it', () => {
    const shapeA = { error: 'Not Found', message: 'No user usr_1', code: 'USER_NOT_FOUND' };
    const shapeB = { success: false, error: 'Not Found', message: 'No user usr_1' };
    expect(texts([exchange(404, shapeA)], [exchange(404, shapeB)])).toEqual([
      'GET /v2/transactions/:transactionId: error shape: mock shape A, sandbox shape B',
    ]);
  });

  it('names a changed error identifier, and a code that went missing', () => {
    const mock = { error: 'Unprocessable Entity', message: 'KYC first', code: 'KYC_INCOMPLETE' };
    expect(texts([exchange(422, mock)], [exchange(422, { ...mock, code: 'KYC_NOT_VERIFIED' })])).toEqual([
      'GET /v2/transactions/:transactionId: error identifier `code`: mock `KYC_INCOMPLETE`, sandbox `KYC_NOT_VERIFIED`',
    ]);
    const { code: _dropped, ...withoutCode } = mock;
    expect(texts([exchange(422, mock)], [exchange(422, withoutCode)])).toEqual([
      'GET /v2/transactions/:transactionId: `body.code`: mock string, sandbox absent',
    ]);
  });

  it('names an error answered as a success', () => {
    const refused = { success: false, error: 'Name Mismatch', message: 'names differ' };
    expect(texts([exchange(200, refused)], [exchange(200, { success: true, data: {} })])).toContain(
      'GET /v2/transactions/:transactionId: outcome: mock an error, sandbox a success',
    );
  });

  it('names a header that is absent or of another form, never its value', () => {
    const mock = exchange(200, transaction, { 'x-ratelimit-limit': '600', 'idempotent-replayed': 'true' });
    const sandbox = exchange(200, transaction, { 'x-ratelimit-limit': 'many' });
    expect(texts([mock], [sandbox])).toEqual([
      'GET /v2/transactions/:transactionId: `Idempotent-Replayed` header: mock "true", sandbox absent',
      'GET /v2/transactions/:transactionId: `X-RateLimit-Limit` header: mock an integer, sandbox "many"',
    ]);
    const html = exchange(200, transaction, { 'content-type': 'text/html; charset=utf-8' });
    expect(
      texts(
        [mock],
        [{ ...html, headers: { ...html.headers, 'x-ratelimit-limit': '60', 'idempotent-replayed': 'true' } }],
      ),
    ).toEqual([
      'GET /v2/transactions/:transactionId: `Content-Type` header: mock application/json, sandbox text/html',
    ]);
  });

  it('names a state that moved otherwise, and a step compared by shape', () => {
    const step = (label: string, value: unknown, compare: 'value' | 'shape' = 'value') => ({
      kind: 'step' as const,
      label,
      value,
      compare,
    });
    expect(
      texts(
        [step('transaction after the payout', 'completed')],
        [step('transaction after the payout', 'failed')],
      ),
    ).toEqual(['transaction after the payout: value: mock "completed", sandbox "failed"']);
    expect(
      texts([step('delivery', { delays: [1, 2] }, 'shape')], [step('delivery', { delays: ['1s'] }, 'shape')]),
    ).toEqual(['delivery: `delays[]`: mock number, sandbox string']);
  });

  it('stops at the first step the sides took differently', () => {
    const step = (label: string) => ({ kind: 'step' as const, label, value: 1, compare: 'value' as const });
    const found = differencesOf([step('a'), step('b'), step('c')], [step('a'), step('c')]);
    expect(found.map((d) => d.text)).toEqual(['b: order: mock b, sandbox c']);
    expect(found[0]?.index).toBe(1);
    expect(texts([step('a')], [step('a'), step('b')])).toEqual(['b: order: mock nothing, sandbox b']);
  });

  it('names a side that stopped only when nothing before it explains why', () => {
    const stopped: Observation = { kind: 'stopped', label: 'stopped', error: 'ResponseValidationError: bad' };
    const other = structuredClone(transaction) as { data: { deposit: Record<string, unknown> } };
    delete other.data.deposit.network;
    const next = exchange(200, transaction);
    expect(texts([exchange(200, transaction), next], [exchange(200, other), stopped])).toEqual([
      'GET /v2/transactions/:transactionId: `deposit.network`: mock string, sandbox absent',
    ]);
    expect(texts([exchange(200, transaction), next], [exchange(200, transaction), stopped])).toEqual([
      'GET /v2/transactions/:transactionId: scenario: mock GET /v2/transactions/:transactionId (200), sandbox stopped (ResponseValidationError: bad)',
    ]);
  });

  it('names a changed format (a timestamp, an amount) as it names a renamed field', () => {
    const other = structuredClone(transaction) as {
      data: { transaction: Record<string, unknown>; deposit: Record<string, unknown> };
    };
    other.data.transaction.createdAt = '1735689600';
    other.data.deposit.expectedAmount = '100.00 USDC';
    expect(texts([exchange(200, transaction)], [exchange(200, other)])).toEqual([
      'GET /v2/transactions/:transactionId: `deposit.expectedAmount` format: mock decimal, sandbox text',
      'GET /v2/transactions/:transactionId: `transaction.createdAt` format: mock date-time, sandbox decimal',
    ]);
  });

  it('names an enum value the contract does not list, nested and inside a list, and a field missing from one item', () => {
    const other = structuredClone(transaction) as { data: { transaction: Record<string, unknown> } };
    other.data.transaction.status = 'on_hold';
    expect(texts([exchange(200, transaction)], [exchange(200, other)])).toEqual([
      'GET /v2/transactions/:transactionId: `transaction.status` value: mock one of "created", "deposit_pending", "deposit_detected", "deposit_confirmed", "payout_processing", "payout_completed", … (as the contract lists), sandbox "on_hold"',
    ]);
    const list = (items: unknown[]): WireExchange => ({
      ...exchange(200, {
        success: true,
        data: items,
        pagination: { page: 1, limit: 20, total: items.length, totalPages: 1 },
      }),
      label: 'GET /v2/webhooks',
      path: '/v2/webhooks',
    });
    const event = {
      id: 'evt_1',
      eventType: 'user.created',
      status: 'delivered',
      attempts: 1,
      createdAt: '2025-01-01T00:00:00.000Z',
    };
    const { status: _status, ...noStatus } = event;
    expect(
      texts([list([event, event, event])], [list([event, { ...event, status: 'parked' }, noStatus])]),
    ).toEqual([
      'GET /v2/webhooks: `[].status` value: mock one of "pending", "delivered", "failed" (as the contract lists), sandbox "parked" on 1 of 3 items',
      'GET /v2/webhooks: `[].status`: mock on every item, sandbox absent on 1 of 3 items',
    ]);
  });

  it('names a header whose unit changed, and a retryAfter in another unit', () => {
    const reset = (value: string) => exchange(200, transaction, { 'x-ratelimit-reset': value });
    expect(texts([reset('1735689600')], [reset('1735689600000')])).toEqual([
      'GET /v2/transactions/:transactionId: `X-RateLimit-Reset` header: mock an integer, Unix time in seconds, sandbox an integer, Unix time in milliseconds',
    ]);
    expect(texts([reset('1735689600')], [reset('42')])).toEqual([
      'GET /v2/transactions/:transactionId: `X-RateLimit-Reset` header: mock an integer, Unix time in seconds, sandbox an integer, seconds from now',
    ]);
    const limited = (retryAfter: number) =>
      exchange(429, { error: 'Rate Limit Exceeded', message: 'slow down', retryAfter });
    expect(texts([limited(30)], [limited(30_000)])).toEqual([
      'GET /v2/transactions/:transactionId: `body.retryAfter` unit: mock seconds (at most 60), sandbox more than 60 (not seconds of a one-minute window)',
    ]);
  });

  it('reads a missing value as "absent", never as a type', () => {
    const envelope = (value: unknown): Observation => ({
      kind: 'step',
      label: 'delivery: envelope',
      value,
      compare: 'delivery',
    });
    const sent = {
      id: 'evt_1',
      event: 'user.created',
      timestamp: '2025-01-01T00:00:00.000Z',
      partnerId: 'p',
      data: { userId: 'usr_1' },
    };
    expect(texts([envelope(sent)], [envelope(undefined)])).toEqual([
      'delivery: envelope: delivery: mock received, sandbox not received',
    ]);
  });

  it('counts one difference met on many requests once, and the run lists it once', () => {
    const found = differencesOf(
      [
        exchange(200, transaction, { 'idempotent-replayed': 'true' }),
        exchange(200, transaction, { 'idempotent-replayed': 'true' }),
      ],
      [exchange(200, transaction), exchange(200, transaction)],
    );
    expect(found.map((d) => [d.text, d.count])).toEqual([
      ['GET /v2/transactions/:transactionId: `Idempotent-Replayed` header: mock "true", sandbox absent', 2],
    ]);
    const other = { ...found[0], step: 'GET /v2/account', count: 1 } as (typeof found)[number];
    const result = (id: string, differences: typeof found) => ({
      id,
      title: id,
      spec: '8',
      tier: 'read-only' as const,
      outcome: 'differs' as const,
      differences,
      mock: [],
      sandbox: [],
      ms: 0,
    });
    expect(summarize([result('a', found), result('b', [other])]).map((s) => s.text)).toEqual([
      '`Idempotent-Replayed` header: mock "true", sandbox absent (on GET /v2/transactions/:transactionId, GET /v2/account), seen 3 times in a, b',
    ]);
  });

  it("never reads the mock's own (x-mock-only) left out by the target as a difference: lists it once", () => {
    const withOwn = {
      ...transaction,
      data: { ...transaction.data, transaction: { ...transaction.data.transaction, updatedAt: 'x' } },
    };
    const rate = { 'x-ratelimit-limit': '600' };
    const { differences, mockOwn } = compareSides(
      [exchange(200, withOwn, rate), exchange(200, withOwn, rate), exchange(429, {}, rate)],
      [exchange(200, transaction), exchange(200, transaction), exchange(429, {})],
    );
    // On a 429 the spec shows the header: its absence there is a difference.
    expect(differences.map((d) => d.text)).toEqual([
      'GET /v2/transactions/:transactionId: `X-RateLimit-Limit` header: mock an integer, sandbox absent',
    ]);
    expect(mockOwn).toEqual([
      '`X-RateLimit-Limit` header: spec 8 shows it on a 429 only; the mock sends it on every answer once the key is known',
      expect.stringMatching(
        /^`transaction\.updatedAt` in GET \/v2\/transactions\/:transactionId: When the status/,
      ),
    ]);
    // The target sending what the mock does not stays a difference.
    expect(differencesOf([exchange(200, transaction)], [exchange(200, withOwn)]).map((d) => d.what)).toEqual([
      '`transaction.updatedAt`',
    ]);
  });

  it('names a new value of an enum nested in a union with every value the union lists', () => {
    const at = (status: string): WireExchange => ({
      ...exchange(200, { success: true, data: { status, verified: false } }),
      label: 'GET /v2/users/:userId/kyc/digilocker/status',
      path: '/v2/users/:userId/kyc/digilocker/status',
    });
    expect(texts([at('PENDING')], [at('IN_REVIEW')])).toEqual([
      expect.stringMatching(
        /^GET \/v2\/users\/:userId\/kyc\/digilocker\/status: `status` value: mock one of (?=.*"PENDING")(?=.*"VERIFIED")(?=.*"EXPIRED")(?=.*"FAILED").* \(as the contract lists\), sandbox "IN_REVIEW"$/,
      ),
    ]);
  });

  it('names an optional field left out in one state with the state, in an answer and in a list', () => {
    const paid = structuredClone(transaction);
    const payout = { status: 'completed', utr: 'UTR1', allocations: paid.data.payout.allocations };
    const withUtr = { ...paid, data: { ...paid.data, payout } };
    const { utr: _utr, ...withoutUtr } = payout;
    expect(
      texts(
        [exchange(200, withUtr)],
        [exchange(200, { ...paid, data: { ...paid.data, payout: withoutUtr } })],
      ),
    ).toEqual([
      'GET /v2/transactions/:transactionId: `payout.utr` when `payout.status` is "completed": mock string, sandbox absent',
    ]);
    const list = (items: unknown[]): WireExchange => ({
      ...exchange(200, { success: true, data: items }),
      label: 'GET /v2/webhooks',
      path: '/v2/webhooks',
    });
    const event = (status: string, deliveredAt?: string) => ({
      id: 'evt',
      status,
      ...(deliveredAt ? { deliveredAt } : {}),
    });
    // Across states the field looks optional; within "delivered" every reference item has it and no target item.
    expect(
      texts(
        [list([event('delivered', 'x'), event('pending'), event('delivered', 'y')])],
        [list([event('delivered'), event('pending', 'z')])],
      ),
    ).toEqual([
      'GET /v2/webhooks: `[].deliveredAt` when `status` is "delivered": mock string, sandbox absent',
    ]);
  });

  it('lists what a stopped side left uncompared', () => {
    const stopped: Observation = { kind: 'stopped', label: 'stopped', error: 'ResponseValidationError: bad' };
    const step = (label: string): Observation => ({ kind: 'step', label, value: 1, compare: 'value' });
    const { notCompared } = compareSides(
      [exchange(200, transaction), step('state after'), step('rate attribution present')],
      [exchange(200, transaction), stopped],
    );
    expect(notCompared).toEqual(['state after', 'rate attribution present']);
  });
});

describe('differences against a drifted sandbox', () => {
  // Proof that the conformance check finds drift: the standalone server behind a proxy that plants one realistic
  // difference at a time (test/mock/conformance/drifted-sandbox.ts). Each planted difference is named, and nothing else
  // is reported; the clean proxy and the in-process mock report no difference at all.

  // One standalone server for every plant, emptied before each (startDriftedSandbox resets it).
  const server = standaloneServer();
  const started = startedPerTest();

  /** Every difference the report names, as printed. */
  const named = (report: ConformanceReport) =>
    report.results.flatMap((r) => r.differences.map((d) => d.text));
  /** Every distinct difference of a run, once. */
  const distinct = (report: ConformanceReport) => [...new Set(named(report))];

  async function checkBehind(plant?: Plant, options: ConformanceOptions = {}): Promise<ConformanceReport> {
    const sandbox = await started.sandbox(plant, server);
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
      const sandbox = await started.sandbox(PLANTS.withoutHelpers, server);
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
      expect(differing.map((r) => r.id)).toEqual([
        'account.read',
        'rate-limit.headers',
        'rate-limit.exceeded',
      ]);
      for (const r of differing) expect([...new Set(r.differences.map((d) => d.text))]).toEqual(renamed);
    });

    it.each([
      {
        name: 'a different status code',
        plant: PLANTS.statusCode,
        only: ['transactions.'],
        lines: ['POST /v2/transactions: status: mock 422, sandbox 400'],
      },
      {
        name: 'a changed error identifier',
        plant: PLANTS.errorIdentifier,
        only: ['transactions.'],
        lines: [
          'POST /v2/transactions: error identifier `code`: mock `AMOUNT_TOO_LOW`, sandbox `AMOUNT_BELOW_MINIMUM`',
        ],
      },
      {
        name: 'error shape A where the mock answers shape B',
        plant: PLANTS.errorShape,
        only: ['kyc.'],
        lines: ['POST /v2/users/:userId/kyc/declaration: error shape: mock shape B, sandbox shape A'],
      },
      {
        name: 'a webhook signature over another clock',
        plant: PLANTS.skewedSignature,
        only: ['webhooks.'],
        lines: [
          'user.created delivery: signature under verifyWebhook, on arrival: value: mock "valid", sandbox "timestamp_out_of_tolerance"',
          'each of them at the receiver, under verifyWebhook: value: mock ["valid"], sandbox ["timestamp_out_of_tolerance"]',
          'every delivery under verifyWebhook, on arrival: value: mock ["valid"], sandbox ["timestamp_out_of_tolerance"]',
        ],
      },
    ])('$name', async ({ plant, only, lines }) => {
      const report = await checkBehind(plant, { only });
      expect(named(report)).toEqual(lines);
    });

    it('a slower webhook retry schedule', async () => {
      const report = await checkBehind(PLANTS.slowerRetries, { only: ['webhooks.retries'] });
      expect(named(report)).toEqual(['seconds before each retry: value: mock [1,2,4,8], sandbox [2,4,8,16]']);
      expect(report.results.find((r) => r.outcome === 'differs')?.id).toBe('webhooks.retries');
    });
  });

  /** As a sandbox looks: no helpers, so only what the API answers (the deliveries need `--guided`). */
  async function checkAsSandbox(plant: Plant, only: string[]): Promise<ConformanceReport> {
    const sandbox = await started.sandbox(combined(PLANTS.withoutHelpers, plant), server);
    return runConformance({ baseUrl: sandbox.url, apiKey: sandbox.server.key, only });
  }

  describe('a standalone server started with --webhook-url', () => {
    let withUrl: RunningServer | undefined;
    afterAll(async () => {
      await withUrl?.stop();
    });

    it("reports no difference: the reference never takes the target's settings, and the run says where its events went", async () => {
      const delivered: string[] = [];
      const receiver = await started.listen((req, res) => {
        req.resume();
        delivered.push(String(req.headers['x-service-event-id']));
        res.writeHead(200).end();
      });
      const url = `${receiver}/hooks`;
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
      expect(report.effects).toContain(
        `Their events will be delivered to the account's webhook URL, ${url}.`,
      );
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
      const sandbox = await started.sandbox(
        combined(PLANTS.withoutHelpers, CONTRACT_PLANTS.listItem),
        server,
      );
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
      const sandbox = await started.sandbox(CONTRACT_PLANTS.stalledRequest, server);
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
});
