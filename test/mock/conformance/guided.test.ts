import { describe, expect, it } from 'vitest';
import type { ConformanceOptions, ConformanceReport } from '../../../mock/conformance/types.js';
import { type GuidedDeposit, runConformance } from '../../../mock/index.js';
import type { WebhookEventType } from '../../../src/webhooks/index.js';
import { freePort, type RunningServer, standaloneServer } from '../server/support.js';
import { CLASSES, EVENT_ID, perScenario, RATE, RENAMED, STATUS, UTR } from './classes.js';
import {
  CONTRACT_PLANTS,
  combined,
  PLANTS,
  type Plant,
  RESPELLED,
  resignSkewed,
  respellOneField,
  transient503Every,
} from './drifted-sandbox.js';
import { startedPerTest } from './per-test.js';

// A guided run (`--guided --receiver-url`) against a target as a partner's sandbox looks: the standalone server
// behind a proxy that answers 404 for /__mock/*, so the run has no helpers. The test plays the blockchain: when
// the run asks for the deposit, it makes it through the server's own helper on the server's real address (as a
// partner's testnet transfer arrives) and moves the server's manual clock, and a small forwarder in front of the
// run's receiver plays the partner's tunnel (and plants respelled payload fields on the way). The proxy plants
// the drift tests' other classes (test/mock/conformance/drifted-sandbox.ts), one per run: each is named exactly and
// nothing else is reported, as with helpers in drift.test.ts; transient 503s and a stalled request never read as
// drift. One run is ~0.5 s, so each class has its own.

const server = standaloneServer();
const started = startedPerTest();

const named = (report: ConformanceReport) => [
  ...new Set(report.results.flatMap((r) => r.differences.map((d) => d.text))),
];

type Rewrite = (body: string) => string;

/** A rewrite of each delivery's body on its way through the tunnel, signed again as the service signs. */
const rewriting =
  (rewrite: Rewrite): Plant['delivery'] =>
  (delivery, secret) => {
    const body = rewrite(delivery.body);
    return body === delivery.body ? delivery : resignSkewed({ ...delivery, body }, secret, 0);
  };

/** The deposit arrives on `target`'s chain and its time moves on: confirmations, then the payout. */
async function playTheChain(target: RunningServer, transactionId: string): Promise<void> {
  const wait = await target.helper('transactions/simulateDeposit', { transactionId });
  await target.helper('clock/advance', wait.body.data);
  await target.helper('clock/advance', '11s');
}

/**
 * How one guided run is set up: the target, a plant at the proxy (its delivery rewrite in the tunnel: deliveries
 * go from the target to the tunnel, not through the proxy), the target's helpers, the run's options.
 */
interface GuidedSetup {
  /** The server behind the proxy: the default-profile one unless given. */
  target?: RunningServer;
  plant?: Plant;
  /** Leave the helpers visible (a standalone mock as it is) and give no `--user-id`. */
  withHelpers?: boolean;
  options?: Partial<ConformanceOptions>;
}

async function guidedRun(setup: GuidedSetup = {}): Promise<{ report: ConformanceReport; lines: string[] }> {
  const target = setup.target ?? server;
  const plant = setup.withHelpers ? (setup.plant ?? {}) : combined(PLANTS.withoutHelpers, setup.plant ?? {});
  const sandbox = await started.sandbox(plant, target);
  const receiverPort = await freePort();
  const receiverUrl = await started.tunnel(receiverPort, setup.plant?.delivery, target.secret);
  // The partner's dashboard: the webhook URL is the tunnel (the API cannot set it), the user is verified.
  await target.helper('accounts/update', { webhookUrl: receiverUrl });
  const mobile = `9${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
  const userId = setup.withHelpers
    ? undefined
    : ((await target.helper('users/seedVerified', { mobile })).body.data as { userId: string }).userId;
  const lines: string[] = [];
  const options: ConformanceOptions = {
    baseUrl: sandbox.url,
    apiKey: target.key,
    guided: true,
    receiverUrl,
    receiverPort,
    webhookSecret: target.secret,
    ...(userId ? { userId } : {}),
    only: ['transactions.guided-flow'],
    pollIntervalMs: 20,
    guidedTimeoutMs: 10_000,
    onProgress: (line) => lines.push(line),
    onDeposit: (deposit) => playTheChain(target, deposit.transactionId),
    ...setup.options,
  };
  return { report: await runConformance(options), lines };
}

describe('a guided run against a target without helpers', () => {
  it('carries a transaction through: the money flow and every delivery compared, nothing reported', async () => {
    const { report, lines } = await guidedRun();
    const result = report.results.find((r) => r.id === 'transactions.guided-flow');
    expect(result?.outcome).toBe('same');
    expect(named(report)).toEqual([]);
    expect(report.exitCode).toBe(0);
    // The deposit was asked for with its address, amount and deadline, and the waits said what they saw.
    expect(
      lines.some((l) => /^guided: send 100 USDC on polygon \(testnet\) to \S+ before \S+Z/.test(l)),
    ).toBe(true);
    // The chain is played before the waits start: each wait ends on its first poll.
    expect(lines).toContain('guided: the deposit: seen (poll 1)');
    expect(lines).toContain('guided: the payout: seen (poll 1)');
    expect(lines.some((l) => l.includes("The account's webhook URL is http://127.0.0.1:"))).toBe(true);
    expect(lines.join('\n')).not.toContain(server.secret);
    // Each side reached the end and received the success path's events, each signed and checked.
    const steps = (result?.sandbox ?? []).flatMap((o) => (o.kind === 'step' ? [[o.label, o.value]] : []));
    expect(steps).toContainEqual(['the transaction ends', true]);
    expect(steps).toContainEqual(['rate attribution present', true]);
    const delivered = (result?.sandbox ?? []).flatMap((o) =>
      o.kind === 'step' && o.compare === 'delivery'
        ? [(o.value as { event?: string } | undefined)?.event]
        : [],
    );
    expect(delivered).toEqual([
      'transaction.created',
      'transaction.deposit_detected',
      'transaction.deposit_confirmed',
      'transaction.payout_initiated',
      'transaction.payout_completed',
    ]);
    expect(steps).toContainEqual(['every delivery under verifyWebhook, on arrival', ['valid']]);
    const events = report.coverage.events.filter((row) => row.status === 'exercised').map((row) => row.name);
    expect(events).toEqual(expect.arrayContaining(['transaction.created', 'transaction.payout_completed']));
    // Both endpoints the guided transaction reaches are met with a success and a refusal, as the guide says.
    for (const name of ['POST /v2/transactions', 'GET /v2/transactions/:transactionId'])
      expect(report.coverage.endpoints.find((row) => row.name === name)?.status).toBe('exercised');
  }, 60_000);

  it('a payload field renamed in one event type on its way: named exactly, nothing else', async () => {
    const { report } = await guidedRun({
      plant: {
        delivery: rewriting((body) => {
          const envelope = JSON.parse(body) as { event?: string; data?: Record<string, unknown> };
          if (envelope.event !== 'transaction.payout_completed' || !envelope.data) return body;
          const { receiver_name, ...data } = envelope.data;
          return JSON.stringify({ ...envelope, data: { ...data, receiverName: receiver_name } });
        }),
      },
    });
    expect(named(report)).toEqual([
      'transaction.payout_completed delivery: envelope: `data.receiverName`: mock absent, sandbox string',
      'transaction.payout_completed delivery: envelope: `data.receiver_name`: mock string, sandbox absent',
    ]);
    expect(report.exitCode).toBe(1);
  }, 60_000);

  it('refuses to start without what a guided run needs, naming it', async () => {
    await expect(runConformance({ baseUrl: 'http://127.0.0.1:9', guided: true })).rejects.toThrow(
      /--guided needs --receiver-url/,
    );
    await expect(
      runConformance({
        baseUrl: 'http://127.0.0.1:9',
        guided: true,
        receiverUrl: 'https://t.example.test/w',
      }),
    ).rejects.toThrow(/webhook secret/);
  });
});

/**
 * The event types a guided run reaches on a sandbox: its one transaction's success path. The user's events come
 * before the run (the partner onboards the user), the sweep lands after the run stops waiting, and the failure
 * paths need the mock's failure amounts and clock (test/mock/conformance/compare.test.ts plants those with helpers).
 */
const REACHED_BY_A_GUIDED_RUN: WebhookEventType[] = [
  'transaction.created',
  'transaction.deposit_detected',
  'transaction.deposit_confirmed',
  'transaction.payout_initiated',
  'transaction.payout_completed',
];

/** The scenarios that did not come out the same, with why. */
const notSame = (report: ConformanceReport) =>
  report.results.filter((r) => r.outcome !== 'same').map((r) => [r.id, r.outcome, r.reason]);

describe('a sandbox that drifted, met by a guided run (helpers hidden): each class named, nothing else', () => {
  it('a timestamp in another format', async () => {
    const { report } = await guidedRun({ plant: CONTRACT_PLANTS.timestampFormat });
    expect(named(report)).toEqual([
      'GET /v2/transactions/:transactionId: `transaction.createdAt` format: mock date-time, sandbox decimal',
    ]);
    expect(report.exitCode).toBe(1);
  }, 60_000);

  it('a new enum value nested in the transaction: a line for review (the client reads enums as open), exit 0', async () => {
    const { report } = await guidedRun({ plant: CONTRACT_PLANTS.nestedEnum });
    expect(named(report)).toEqual([
      'GET /v2/transactions/:transactionId: `deposit.network` value: mock one of "polygon", "ethereum", "arbitrum", "base", "solana" (as the contract lists), sandbox "polygon_pos"',
    ]);
    expect(report.summary.map((s) => s.severity)).toEqual(['review']);
    expect(report.results[0]?.outcome).toBe('review');
    expect(report.exitCode).toBe(0);
  }, 60_000);

  it('a field respelled in every event type: named in each of the five a guided run receives', async () => {
    const { report } = await guidedRun({ plant: { delivery: rewriting(respellOneField) } });
    const expected = REACHED_BY_A_GUIDED_RUN.flatMap((type) => {
      const [from, to] = RESPELLED[type];
      return [
        `${type} delivery: envelope: \`data.${to}\`: mock absent, sandbox string`,
        `${type} delivery: envelope: \`data.${from}\`: mock string, sandbox absent`,
      ];
    });
    expect([...named(report)].sort()).toEqual([...expected].sort());
    expect(report.exitCode).toBe(1);
    // Those five are received and checked; the coverage says the other five are not.
    const exercised = report.coverage.events.filter((r) => r.status === 'exercised').map((r) => r.name);
    expect(exercised).toEqual(REACHED_BY_A_GUIDED_RUN);
  }, 60_000);

  it('a header in another unit: one line, however many requests carry it', async () => {
    const { report } = await guidedRun({ plant: CONTRACT_PLANTS.headerUnit });
    expect(report.summary.map((s) => s.text)).toEqual([
      '`X-RateLimit-Reset` header: mock an integer, Unix time in seconds, sandbox an integer, Unix time in milliseconds (on POST /v2/transactions, GET /v2/transactions/:transactionId), seen 6 times in transactions.guided-flow',
    ]);
    expect(report.exitCode).toBe(1);
  }, 60_000);

  it('503s from a gateway (the create once, and 1 request in 4): retried, nothing reported, exit status 0', async () => {
    // A guided run sends about a dozen requests: 1 in 20 might miss them all, and the create is where money moves.
    const every4th = transient503Every(4);
    let createRefused = false;
    const answered503: string[] = [];
    const { report } = await guidedRun({
      plant: {
        intercept: (method, path, n) => {
          const first = method === 'POST' && path === '/v2/transactions' && !createRefused;
          if (first) createRefused = true;
          const status = first ? 503 : every4th.intercept?.(method, path, n);
          if (status !== undefined) answered503.push(`${method} ${path.replace(/txn_\w+/, ':id')}`);
          return status;
        },
      },
      options: { backoff: 0 },
    });
    expect(answered503).toContain('POST /v2/transactions');
    expect(answered503.length).toBeGreaterThan(1);
    expect(named(report)).toEqual([]);
    expect(notSame(report)).toEqual([]);
    expect(report.exitCode).toBe(0);
  }, 60_000);

  it('a stalled request: the scenario is "target unavailable", nothing else is reported, exit status 2', async () => {
    const { report, lines } = await guidedRun({
      plant: CONTRACT_PLANTS.stalledCreate,
      options: { timeoutMs: 300, backoff: 0 },
    });
    expect(named(report)).toEqual([]);
    expect(notSame(report)).toEqual([
      [
        'transactions.guided-flow',
        'unavailable',
        'target unavailable: POST /v2/transactions gave no answer in 0.3 s on each of 3 attempts',
      ],
    ]);
    expect(report.exitCode).toBe(2);
    // No transaction, so no deposit was asked for.
    expect(lines.some((l) => l.startsWith('guided: send'))).toBe(false);
  }, 60_000);
});

describe('the user a guided run transacts for', () => {
  it('on a target with the helpers and no --user-id: the run seeds a verified user itself', async () => {
    const { report, lines } = await guidedRun({ withHelpers: true });
    expect(notSame(report)).toEqual([]);
    expect(named(report)).toEqual([]);
    expect(report.exitCode).toBe(0);
    expect(
      lines.some((l) => l.includes("for a KYC-verified user it seeds through the target's helpers")),
    ).toBe(true);
    expect(lines).toContain('guided: the payout: seen (poll 1)');
  }, 60_000);

  it('on a target without the helpers and no --user-id: refused before any API request, naming --user-id', async () => {
    const sent: string[] = [];
    const sandbox = await started.sandbox(
      combined(PLANTS.withoutHelpers, {
        intercept: (method, path) => {
          sent.push(`${method} ${path}`);
          return undefined;
        },
      }),
      server,
    );
    await expect(
      runConformance({
        baseUrl: sandbox.url,
        apiKey: server.key,
        guided: true,
        receiverUrl: 'https://t.example.test/w',
        webhookSecret: server.secret,
      }),
    ).rejects.toThrow(
      "--guided needs --user-id on a target without the mock's helpers: a KYC-verified user with a verified bank account on the target to transact for",
    );
    // Only the probe that found no helpers.
    expect(sent).toEqual(['GET /__mock']);
  });
});

describe('the planted classes, under --guided', () => {
  // Each class of drift a real sandbox shows (classes.ts), planted one at a time by a proxy in front of the
  // standalone server in its strict profile with the helpers hidden, as a sandbox, under `--guided`: each is named
  // exactly once in each scenario it appears in, and nothing else is reported (the default profile with its
  // helpers: contract-problems.test.ts). A guided run with a drifted field waits no longer than a clean one: it
  // polls as often (the waits count their polls; a wait that a drift held would poll until its deadline).

  const strict = standaloneServer(['--profile', 'strict']);

  /**
   * A guided run against the strict-profile server with its helpers hidden, `plant` at the proxy and tunnel;
   * `onDeposit` (default: the chain played at once) is told when the run asks for the deposit.
   */
  async function guided(
    plant: Plant = {},
    onDeposit: (deposit: GuidedDeposit) => void | Promise<void> = (d) =>
      playTheChain(strict, d.transactionId),
  ): Promise<{ report: ConformanceReport; polls: number[]; lines: string[] }> {
    const { report, lines } = await guidedRun({ target: strict, plant, options: { onDeposit } });
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

    it.each([
      {
        name: 'a status the contract does not list before the deposit: named once',
        plant: CLASSES.unknownStatus,
        line: STATUS,
      },
      {
        name: 'an optional field left out in one state: named with the state',
        plant: CLASSES.omittedInState,
        line: UTR,
      },
      {
        name: 'a missing X-Service-Event-Id header: one line',
        plant: CLASSES.missingEventId,
        line: EVENT_ID,
      },
    ])(
      '$name',
      async ({ plant, line }) => {
        const { report } = await guided(plant);
        expect(perScenario(report)).toEqual([`transactions.guided-flow: ${line}`]);
      },
      60_000,
    );

    it('a status the contract does not list, met while waiting: said at once, and the wait goes on to the deposit', async () => {
      // The deposit arrives only once a poll of the wait has met the unlisted status: the wait must not end there.
      let played: Promise<void> | undefined;
      const waitingOnIt: Plant = {
        answer: (method, path, answer) => {
          const planted = CLASSES.unknownStatus.answer?.(method, path, answer);
          const id = /txn_\w+$/.exec(path)?.[0];
          if (planted && id && depositAsked) played ??= playTheChain(strict, id);
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
      const steps = report.results[0]?.sandbox.flatMap((o) =>
        o.kind === 'step' ? [[o.label, o.value]] : [],
      );
      expect(steps).toContainEqual(['the deposit is seen', true]);
      expect(steps).toContainEqual(['the transaction ends', true]);
    }, 60_000);

    it('a renamed event type: named as such, its payload compared with the type it stands in for', async () => {
      const { report, polls } = await guided(CLASSES.renamedEventType);
      expect(perScenario(report)).toEqual([`transactions.guided-flow: ${RENAMED}`]);
      expect(polls).toHaveLength(3);
      const events = report.coverage.events.filter((r) => r.status === 'exercised').map((r) => r.name);
      expect(events).not.toContain('transaction.payout_completed');
    }, 60_000);
  });
});
