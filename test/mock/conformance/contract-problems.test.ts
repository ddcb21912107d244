// Each class of drift a real sandbox shows, planted one at a time by a proxy in front of the standalone server
// (test/mock/conformance/drifted-sandbox.ts), in the default profile with its helpers and in the strict profile with
// them hidden, as a sandbox, under `--guided`: each is named exactly once in each scenario it appears in, and
// nothing else is reported. A guided run with a drifted field waits no longer than a clean one: it polls as
// often (the waits count their polls; a wait that a drift held would poll until its deadline).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceOptions, ConformanceReport } from '../../../mock/conformance/types.js';
import { type GuidedDeposit, runConformance } from '../../../mock/index.js';
import { signWebhook } from '../../../src/webhooks/index.js';
import { type RunningServer, startServer } from '../server/support.js';
import {
  combined,
  type DriftedSandbox,
  PLANTS,
  type Plant,
  type ProxiedAnswer,
  type ProxiedDelivery,
  startDriftedSandbox,
} from './drifted-sandbox.js';

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

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

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
      const body = isRecord(answer.body) ? answer.body : undefined;
      if (method !== 'GET' || !TRANSACTION.test(path) || answer.status !== 200 || !isRecord(body?.data))
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

const leg = (data: Record<string, unknown>, name: string) => (isRecord(data[name]) ? data[name] : undefined);

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
      const body = isRecord(answer.body) ? answer.body : undefined;
      if (method !== 'GET' || !path.endsWith('/kyc/digilocker/status') || !isRecord(body?.data))
        return undefined;
      if (body.data.status !== 'PENDING') return undefined;
      return { ...answer, body: { ...body, data: { ...body.data, status: 'IN_REVIEW' } } };
    },
  },
  /** The KYC status record's document-locker block (spec 2.7) with a status the contract does not list. */
  nestedRecordEnum: {
    answer: (method: string, path: string, answer: ProxiedAnswer) => {
      const body = isRecord(answer.body) ? answer.body : undefined;
      const data = isRecord(body?.data) ? body.data : undefined;
      if (method !== 'GET' || !path.endsWith('/kyc/status') || !isRecord(data?.digilocker)) return undefined;
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

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** The partner's tunnel to the run's receiver, with the plant's delivery rewrite on the way. */
async function startTunnel(receiverPort: number, plant: Plant, secret: string): Promise<string> {
  tunnel = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string' && !['host', 'content-length', 'connection'].includes(name))
        headers[name] = value;
    let delivery: ProxiedDelivery = { body: Buffer.concat(chunks).toString('utf8'), headers };
    if (plant.delivery) delivery = plant.delivery(delivery, secret);
    const answer = await fetch(`http://127.0.0.1:${receiverPort}/webhooks`, {
      method: 'POST',
      headers: delivery.headers,
      body: delivery.body,
    });
    res.writeHead(answer.status).end();
  });
  await new Promise<void>((resolve) => tunnel?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(tunnel.address() as AddressInfo).port}/webhooks`;
}

/** The deposit arrives on the chain and the service's time moves on: confirmations, then the payout. */
async function playTheChain(transactionId: string): Promise<void> {
  const wait = await strict.helper('transactions/simulateDeposit', { transactionId });
  await strict.helper('clock/advance', wait.body.data);
  await strict.helper('clock/advance', '11s');
}

/**
 * A guided run against the strict-profile server with its helpers hidden, `plant` at the proxy and tunnel;
 * `onDeposit` (default: the chain played at once) is told when the run asks for the deposit.
 */
async function guided(
  plant: Plant = {},
  onDeposit: (deposit: GuidedDeposit) => void | Promise<void> = (d) => playTheChain(d.transactionId),
): Promise<{ report: ConformanceReport; polls: number[]; lines: string[] }> {
  sandbox = await startDriftedSandbox(combined(PLANTS.withoutHelpers, plant), strict);
  const receiverPort = await freePort();
  const receiverUrl = await startTunnel(receiverPort, plant, strict.secret);
  await strict.helper('accounts/update', { webhookUrl: receiverUrl });
  const mobile = `9${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
  const seeded = await strict.helper('users/seedVerified', { mobile });
  const userId = isRecord(seeded.body.data) ? String(seeded.body.data.userId) : '';
  const lines: string[] = [];
  const options: ConformanceOptions = {
    baseUrl: sandbox.url,
    apiKey: strict.key,
    guided: true,
    receiverUrl,
    receiverPort,
    webhookSecret: strict.secret,
    userId,
    only: ['transactions.guided-flow'],
    pollIntervalMs: 20,
    guidedTimeoutMs: 10_000,
    onProgress: (line) => lines.push(line),
    onDeposit,
  };
  const report = await runConformance(options);
  const polls = lines.flatMap((l) => {
    const seen = /^guided: (the \w+): seen \(poll (\d+)\)$/.exec(l);
    return seen ? [Number(seen[2])] : [];
  });
  // Every wait ended on what it waited for: none ran to its deadline.
  expect(lines.filter((l) => l.includes('not seen within'))).toEqual([]);
  return { report, polls, lines };
}

const total = (polls: readonly number[]) => polls.reduce((a, b) => a + b, 0);

describe('each class under --guided, on the strict-profile server with its helpers hidden', () => {
  let clean: number[] = [];
  it('clean: no difference, exit 0, each of the three waits over on its first polls', async () => {
    const { report, polls } = await guided();
    expect(perScenario(report)).toEqual([]);
    expect(report.exitCode).toBe(0);
    expect(polls).toHaveLength(3);
    clean = polls;
  }, 60_000);

  it('a drifted field type: named once; the waits poll no more than a clean run (plus one poll each)', async () => {
    const { report, polls } = await guided(CLASSES.driftedType);
    expect(perScenario(report)).toEqual([`transactions.guided-flow: ${RATE}`]);
    expect(polls).toHaveLength(3);
    for (const [i, n] of polls.entries()) expect(n).toBeLessThanOrEqual((clean[i] ?? 1) + 1);
    expect(total(polls)).toBeLessThanOrEqual(2 * total(clean));
  }, 60_000);

  it('a status the contract does not list before the deposit: named once', async () => {
    const { report } = await guided(CLASSES.unknownStatus);
    expect(perScenario(report)).toEqual([`transactions.guided-flow: ${STATUS}`]);
  }, 60_000);

  it('a status the contract does not list, met while waiting: said at once, and the wait goes on to the deposit', async () => {
    // The deposit arrives only once a poll of the wait has met the unlisted status: the wait must not end there.
    let played: Promise<void> | undefined;
    const waitingOnIt: Plant = {
      answer: (method, path, answer) => {
        const planted = CLASSES.unknownStatus.answer?.(method, path, answer);
        const id = /txn_\w+$/.exec(path)?.[0];
        if (planted && id && depositAsked) played ??= playTheChain(id);
        return planted;
      },
    };
    let depositAsked = false;
    const { report, lines } = await guided(waitingOnIt, () => {
      depositAsked = true;
    });
    await played;
    expect(perScenario(report)).toEqual([`transactions.guided-flow: ${STATUS}`]);
    const said = lines.indexOf(
      'guided: the transaction is "deposit_awaited", a status the contract does not list (a difference); still waiting',
    );
    const seen = lines.findIndex((l) => l.startsWith('guided: the deposit: seen (poll '));
    expect(said).toBeGreaterThan(-1);
    expect(seen).toBeGreaterThan(said);
    expect(lines[seen]).not.toBe('guided: the deposit: seen (poll 1)');
    const steps = report.results[0]?.sandbox.flatMap((o) => (o.kind === 'step' ? [[o.label, o.value]] : []));
    expect(steps).toContainEqual(['the deposit is seen', true]);
    expect(steps).toContainEqual(['the transaction ends', true]);
  }, 60_000);

  it('an optional field left out in one state: named with the state', async () => {
    const { report } = await guided(CLASSES.omittedInState);
    expect(perScenario(report)).toEqual([`transactions.guided-flow: ${UTR}`]);
  }, 60_000);

  it('a renamed event type: named as such, its payload compared with the type it stands in for', async () => {
    const { report, polls } = await guided(CLASSES.renamedEventType);
    expect(perScenario(report)).toEqual([`transactions.guided-flow: ${RENAMED}`]);
    expect(polls).toHaveLength(3);
    const events = report.coverage.events.filter((r) => r.status === 'exercised').map((r) => r.name);
    expect(events).not.toContain('transaction.payout_completed');
  }, 60_000);

  it('a missing X-Service-Event-Id header: one line', async () => {
    const { report } = await guided(CLASSES.missingEventId);
    expect(perScenario(report)).toEqual([`transactions.guided-flow: ${EVENT_ID}`]);
  }, 60_000);
});
