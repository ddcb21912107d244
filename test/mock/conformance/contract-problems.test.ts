import type { Server } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../../../mock/conformance/types.js';
import { runConformance } from '../../../mock/index.js';
import { isPlainObject } from '../../../src/shared/plain-object.js';
import { signWebhook } from '../../../src/webhooks/index.js';
import { type RunningServer, startServer } from '../server/support.js';
import {
  type DriftedSandbox,
  type Plant,
  type ProxiedAnswer,
  type ProxiedDelivery,
  startDriftedSandbox,
} from './drifted-sandbox.js';

// Each class of drift a real sandbox shows, planted one at a time by a proxy in front of the standalone server
// (test/mock/conformance/drifted-sandbox.ts), in the default profile with its helpers and in the strict profile with
// them hidden, as a sandbox, under `--guided`: each is named exactly once in each scenario it appears in, and
// nothing else is reported. A guided run with a drifted field waits no longer than a clean one: it polls as
// often (the waits count their polls; a wait that a drift held would poll until its deadline).

let standard: RunningServer;
let strict: RunningServer;
beforeAll(async () => {
  [standard, strict] = await Promise.all([startServer(), startServer(['--profile', 'strict'])]);
}, 60_000);
afterAll(async () => {
  await standard?.stop();
  await strict?.stop();
});
let sandbox: DriftedSandbox | undefined;
let tunnel: Server | undefined;
afterEach(async () => {
  await sandbox?.close();
  tunnel?.closeAllConnections();
  await new Promise<void>((resolve) => (tunnel ? tunnel.close(() => resolve()) : resolve()));
  sandbox = undefined;
  tunnel = undefined;
});

/** Every difference of each scenario, as `scenario: text`, each scenario's distinct ones once. */
const perScenario = (report: ConformanceReport) =>
  report.results.flatMap((r) => [...new Set(r.differences.map((d) => `${r.id}: ${d.text}`))]);

const TRANSACTION = /^\/v2\/transactions\/txn_[^/]+$/;

/** Rewrites the transaction in each successful `GET /v2/transactions/{id}` answer. */
function transactionRead(
  change: (data: Record<string, unknown>) => Record<string, unknown> | undefined,
): Plant {
  return {
    answer: (method: string, path: string, answer: ProxiedAnswer) => {
      const body = isPlainObject(answer.body) ? answer.body : undefined;
      if (method !== 'GET' || !TRANSACTION.test(path) || answer.status !== 200 || !isPlainObject(body?.data))
        return undefined;
      const data = change(body.data);
      return data && { ...answer, body: { ...body, data } };
    },
  };
}

/** Re-signs a delivery whose body changed, as the service signs. */
function resigned(delivery: ProxiedDelivery, body: string, secret: string): ProxiedDelivery {
  const t = Number(/t=(\d+)/.exec(delivery.headers['x-service-signature'] ?? '')?.[1]);
  const signed = signWebhook({ payload: body, secret, timestamp: t });
  return { body: signed.body, headers: { ...delivery.headers, 'x-service-signature': signed.signature } };
}

const leg = (data: Record<string, unknown>, name: string) =>
  isPlainObject(data[name]) ? data[name] : undefined;

/** The classes, each a plant on the API's answers or on the deliveries. */
const CLASSES = {
  /** The mock's own `transaction.updatedAt` left out (the default-profile server): no difference. */
  mockOnlyMissing: transactionRead((data) => {
    const transaction = leg(data, 'transaction');
    if (!transaction) return undefined;
    const { updatedAt: _mine, ...spec } = transaction;
    return { ...data, transaction: spec };
  }),
  /** `payout.rate`, a decimal string, sent as a number. */
  driftedType: transactionRead((data) => {
    const payout = leg(data, 'payout');
    if (typeof payout?.rate !== 'string') return undefined;
    return { ...data, payout: { ...payout, rate: Number(payout.rate) } };
  }),
  /** A status the contract does not list, before the deposit (`created` read as `deposit_awaited`). */
  unknownStatus: transactionRead((data) => {
    const transaction = leg(data, 'transaction');
    if (transaction?.status !== 'created') return undefined;
    return { ...data, transaction: { ...transaction, status: 'deposit_awaited' } };
  }),
  /** `payout.utr`, optional in the contract, left out once the payout completed. */
  omittedInState: transactionRead((data) => {
    const payout = leg(data, 'payout');
    if (payout?.status !== 'completed' || payout.utr === undefined) return undefined;
    const { utr: _utr, ...rest } = payout;
    return { ...data, payout: rest };
  }),
  /** The document-locker session's status a value the contract's union does not list. */
  nestedEnum: {
    answer: (method: string, path: string, answer: ProxiedAnswer) => {
      const body = isPlainObject(answer.body) ? answer.body : undefined;
      if (method !== 'GET' || !path.endsWith('/kyc/digilocker/status') || !isPlainObject(body?.data))
        return undefined;
      if (body.data.status !== 'PENDING') return undefined;
      return { ...answer, body: { ...body, data: { ...body.data, status: 'IN_REVIEW' } } };
    },
  },
  /** The KYC status record's document-locker block (spec 2.7) with a status the contract does not list. */
  nestedRecordEnum: {
    answer: (method: string, path: string, answer: ProxiedAnswer) => {
      const body = isPlainObject(answer.body) ? answer.body : undefined;
      const data = isPlainObject(body?.data) ? body.data : undefined;
      if (method !== 'GET' || !path.endsWith('/kyc/status') || !isPlainObject(data?.digilocker))
        return undefined;
      return {
        ...answer,
        body: { ...body, data: { ...data, digilocker: { ...data.digilocker, status: 'IN_REVIEW' } } },
      };
    },
  },
  /** `transaction.payout_completed` delivered as `transaction.payout_succeeded`. */
  renamedEventType: {
    delivery: (delivery: ProxiedDelivery, secret: string) => {
      const envelope = JSON.parse(delivery.body) as Record<string, unknown>;
      if (envelope.event !== 'transaction.payout_completed') return delivery;
      return resigned(
        delivery,
        JSON.stringify({ ...envelope, event: 'transaction.payout_succeeded' }),
        secret,
      );
    },
  },
  /** Deliveries without the `X-Service-Event-Id` header. */
  missingEventId: {
    delivery: (delivery: ProxiedDelivery) => {
      const { 'x-service-event-id': _id, ...headers } = delivery.headers;
      return { ...delivery, headers };
    },
  },
} satisfies Record<string, Plant>;

const RATE = 'GET /v2/transactions/:transactionId: `payout.rate`: mock string, sandbox number';
const STATUS =
  'GET /v2/transactions/:transactionId: `transaction.status` value: mock one of "created", "deposit_pending", "deposit_detected", "deposit_confirmed", "payout_processing", "payout_completed", … (as the contract lists), sandbox "deposit_awaited"';
const UTR =
  'GET /v2/transactions/:transactionId: `payout.utr` when `payout.status` is "completed": mock string, sandbox absent';
const RENAMED =
  'transaction.payout_completed delivery: envelope: `event` value: mock one of the ten event types (as the contract lists), sandbox "transaction.payout_succeeded"';
const EVENT_ID = "a delivery's headers: `X-Service-Event-Id` header: mock the envelope's id, sandbox absent";

describe('each class planted on the default-profile server, its helpers visible', () => {
  async function check(plant: Plant, only: string[]): Promise<ConformanceReport> {
    sandbox = await startDriftedSandbox(plant, standard);
    const report = await runConformance({ baseUrl: sandbox.url, apiKey: standard.key, only });
    expect(report.results.filter((r) => r.outcome === 'skipped')).toEqual([]);
    return report;
  }
  const FLOWS = ['transactions.standard-flow', 'transactions.prefunded-flow'];

  it("the mock's own field left out: no difference, exit 0", async () => {
    const report = await check(CLASSES.mockOnlyMissing, FLOWS);
    expect(perScenario(report)).toEqual([]);
    expect(report.exitCode).toBe(0);
    expect(report.mockOwn).toEqual([expect.stringMatching(/^`transaction\.updatedAt` in GET /)]);
  }, 60_000);

  it('a drifted field type: named once where it is sent, and the flow still runs to its end', async () => {
    const report = await check(CLASSES.driftedType, FLOWS);
    // The prefunded flow's reads carry no rate (its payout is not pool-attributed): nothing to name there.
    expect(perScenario(report)).toEqual([`transactions.standard-flow: ${RATE}`]);
    expect(report.results.flatMap((r) => r.notCompared ?? [])).toEqual([]);
    // A type changed breaks a partner's code.
    expect(report.summary.map((s) => s.severity)).toEqual(['breaking']);
    expect(report.exitCode).toBe(1);
  }, 60_000);

  it('a status the contract does not list before the deposit: named once, not again in the states', async () => {
    const report = await check(CLASSES.unknownStatus, ['transactions.standard-flow']);
    expect(perScenario(report)).toEqual([`transactions.standard-flow: ${STATUS}`]);
    // The client reads enums as open: a new value breaks nothing, and is for review.
    expect(report.summary.map((s) => s.severity)).toEqual(['review']);
    expect(report.exitCode).toBe(0);
  }, 60_000);

  it('an optional field left out in one state: named with the state', async () => {
    const report = await check(CLASSES.omittedInState, ['transactions.standard-flow']);
    expect(perScenario(report)).toEqual([`transactions.standard-flow: ${UTR}`]);
  }, 60_000);

  it('a nested enum value: named once in each scenario that reads it', async () => {
    const report = await check(CLASSES.nestedEnum, ['kyc.']);
    const texts = perScenario(report);
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts)
      expect(text).toMatch(
        /^kyc\.[\w-]+: GET \/v2\/users\/:userId\/kyc\/digilocker\/status: `status` value: mock one of (?=.*"PENDING")(?=.*"EXPIRED").* \(as the contract lists\), sandbox "IN_REVIEW"$/,
      );
    expect(new Set(texts.map((t) => t.split(':')[0])).size).toBe(texts.length);
  }, 60_000);

  it('a nested enum value inside the KYC status record: named with the field, in each scenario that reads it', async () => {
    const report = await check(CLASSES.nestedRecordEnum, ['kyc.']);
    const texts = perScenario(report);
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts)
      expect(text).toMatch(
        /^kyc\.[\w-]+: GET \/v2\/users\/:userId\/kyc\/status: `digilocker\.status` value: mock one of (?=.*"pending")(?=.*"VERIFIED").* \(as the contract lists\), sandbox "IN_REVIEW"$/,
      );
    expect(new Set(texts.map((t) => t.split(':')[0])).size).toBe(texts.length);
  }, 60_000);

  it('a renamed event type: named as such in each webhook scenario that receives it, nothing else', async () => {
    const report = await check(CLASSES.renamedEventType, ['webhooks.order', 'webhooks.every-event']);
    expect(perScenario(report)).toEqual([`webhooks.order: ${RENAMED}`, `webhooks.every-event: ${RENAMED}`]);
    // A handler dispatching on the type never sees it: breaking, unlike a new value in an answer.
    expect(report.summary.map((s) => s.severity)).toEqual(['breaking']);
  }, 60_000);

  it('a missing X-Service-Event-Id header: one line in each scenario that compares headers', async () => {
    const report = await check(CLASSES.missingEventId, ['webhooks.']);
    expect(perScenario(report)).toEqual([
      `webhooks.delivery: ${EVENT_ID}`,
      `webhooks.every-event: ${EVENT_ID}`,
    ]);
  }, 60_000);
});
