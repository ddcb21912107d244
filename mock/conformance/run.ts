/**
 * The suite's run: runs its scenarios on the reference (an in-process mock) and on the target, and
 * compares what each side observed.
 */

import { describeError } from '../../src/shared/describe-error.js';
import { virtualClientClock } from '../http/client-clock.js';
import { createMockFetch } from '../http/fetch.js';
import { createMockService, type MockService } from '../service.js';
import { objectOf } from '../state/records.js';
import { type AttemptPolicy, DEFAULT_ATTEMPTS, sendWithRetries, TargetUnavailable } from './attempts.js';
import { compareSides } from './compare.js';
import { loadContractCheck } from './contract-problems.js';
import { coverageOf } from './coverage.js';
import { ConformanceError } from './errors.js';
import {
  GUIDED_USER_NEEDED,
  type GuidedSettings,
  quietClient,
  referenceGuided,
  targetGuided,
} from './guided.js';
import { createPacer, type Pacer } from './pace.js';
import { summarize } from './report.js';
import { SCENARIOS } from './scenarios/index.js';
import { GUIDED_SCENARIO } from './scenarios/transactions.js';
import { type ConformanceReceiver, startReceiver } from './scenarios/webhook-receiver.js';
import {
  probeHelpers,
  type RunNames,
  retryingFetch,
  runNames,
  ScenarioSkipped,
  type SideSetup,
  scenarioTarget,
} from './target.js';
import {
  type ConformanceOptions,
  type ConformanceReport,
  type Observation,
  type Scenario,
  type ScenarioResult,
  type Side,
  TIERS,
  type Tier,
} from './types.js';

/** A live key, however it is written: `pk_live_` in any case, with any space around it. */
function isLiveKey(key: string): boolean {
  return /^pk_live_/i.test(key.trim());
}

function policyOf(options: ConformanceOptions, progress: (line: string) => void): AttemptPolicy {
  for (const [name, value] of [
    ['timeoutMs', options.timeoutMs],
    ['retries', options.retries],
    ['backoff', options.backoff],
  ] as const) {
    if (value !== undefined && !(Number.isFinite(value) && value >= 0))
      throw new ConformanceError(`${name} must be a number of 0 or more; got ${value}`);
  }
  return {
    ...DEFAULT_ATTEMPTS,
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.retries !== undefined ? { retries: Math.floor(options.retries) } : {}),
    ...(options.backoff !== undefined ? { backoff: options.backoff } : {}),
    progress,
  };
}

function tiersOf(tier: ConformanceOptions['tier']): Tier[] {
  const asked = tier === undefined ? TIERS : typeof tier === 'string' ? [tier] : tier;
  for (const t of asked) {
    if (!TIERS.includes(t)) throw new ConformanceError(`Unknown tier "${t}": use ${TIERS.join(', ')}`);
  }
  return TIERS.filter((t) => asked.includes(t));
}

/** The default port of a guided run's receiver on 127.0.0.1. */
const DEFAULT_RECEIVER_PORT = 8787;

/** A guided run's options, checked before anything is sent; undefined when the run is not guided. */
function guidedSettings(options: ConformanceOptions): GuidedSettings | undefined {
  if (!options.guided) return undefined;
  const { receiverUrl, webhookSecret } = options;
  if (receiverUrl === undefined || !URL.canParse(receiverUrl))
    throw new ConformanceError(
      `--guided needs --receiver-url: the public URL (your tunnel to the run's receiver on 127.0.0.1) set as your account's webhook URL${receiverUrl === undefined ? '' : `; got ${receiverUrl}`}`,
    );
  if (!webhookSecret?.trim())
    throw new ConformanceError(
      "--guided needs the account's webhook secret to verify each delivery: give --webhook-secret or set INR_PAYOUTS_WEBHOOK_SECRET",
    );
  const port = options.receiverPort ?? DEFAULT_RECEIVER_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new ConformanceError(`--receiver-port must be a port number (0-65535); got ${port}`);
  return {
    receiverUrl,
    receiverPort: port,
    webhookSecret: webhookSecret.trim(),
    userId: options.userId?.trim() || undefined,
    onDeposit: options.onDeposit,
    pollIntervalMs: options.pollIntervalMs ?? 5_000,
    timeoutMs: options.guidedTimeoutMs ?? 3_600_000,
  };
}

// The mock service without msw's adapter (`createMockService` would load msw): the command line runs without it.
function inProcessSide(side: Side, mock: MockService, pacer: Pacer): SideSetup {
  return {
    side,
    baseUrl: mock.baseUrl,
    apiKey: mock.sandboxKey,
    send: createMockFetch(mock.baseUrl, mock.dispatch),
    pacer,
    helpers: mock.helpers,
    clock: virtualClientClock(mock.clock),
  };
}

/** Picks the target's side: a base URL (a standalone mock or a sandbox) or a second in-process mock. */
async function targetSide(
  options: ConformanceOptions,
  pacer: Pacer,
  policy: AttemptPolicy,
): Promise<SideSetup> {
  if (options.baseUrl === undefined) return inProcessSide('sandbox', createMockService(), pacer);
  const send = options.fetch ?? globalThis.fetch;
  const attempts: NonNullable<SideSetup['attempts']> = { policy };
  const helpers = await probeHelpers(options.baseUrl, send, pacer, policy, retryingFetch(send, { attempts }));
  let apiKey = options.apiKey?.trim();
  if (apiKey === undefined && helpers) {
    try {
      apiKey = (await helpers.accounts.get()).keys.sandbox;
    } catch (error) {
      throw new ConformanceError(
        `Could not read the sandbox key from ${options.baseUrl}'s test helpers (${describeError(error)}): give it with --api-key`,
      );
    }
  }
  if (apiKey === undefined) {
    throw new ConformanceError(
      `${options.baseUrl} has no mock test helpers to read a key from: give the sandbox key (--api-key pk_sandbox_…)`,
    );
  }
  return {
    side: 'sandbox',
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    apiKey,
    send,
    pacer,
    helpers,
    attempts,
  };
}

/** A pace for a target whose account does not state its rate limit: slow enough for any account. */
const FALLBACK_RATE_LIMIT = 30;

/**
 * Reads the target's account first, through its own pacer: its rate limit paces the run (spec 8). Read as plain
 * JSON, not through the client's schemas, so a drifted account field is a difference the account scenario names,
 * not a run that cannot start.
 */
async function readAccount(
  setup: SideSetup,
): Promise<{ rateLimit: number | undefined; webhookUrl: unknown }> {
  const url = `${setup.baseUrl}/v2/account`;
  let status = 0;
  let body: unknown;
  const request = new Request(url, { headers: { Authorization: `Bearer ${setup.apiKey}` } });
  try {
    await setup.pacer.next();
    const response = setup.attempts
      ? await sendWithRetries(setup.send, request, setup.attempts.policy, { label: 'GET /v2/account' })
      : await setup.send(request);
    status = response.status;
    body = await response.json().catch(() => undefined);
  } catch (error) {
    const what = error instanceof TargetUnavailable ? error.message : String(error);
    throw new ConformanceError(`Could not read the account at ${url} (${what}): check the base URL`);
  }
  const data = objectOf(objectOf(body)?.data);
  if (status !== 200 || !data) {
    throw new ConformanceError(
      `${url} answered ${status} without an account: check the base URL and the API key`,
    );
  }
  const rateLimit = objectOf(data.limits)?.rateLimit;
  return {
    rateLimit: typeof rateLimit === 'number' && rateLimit > 0 ? rateLimit : undefined,
    webhookUrl: data.webhookUrl,
  };
}

/** What one side of a scenario came to: its observations, a skip's reason, or the request it found the target unavailable on. */
type SideOutcome = Observation[] | ScenarioSkipped | TargetUnavailable;

async function runSide(setup: SideSetup, names: RunNames, scenario: Scenario): Promise<SideOutcome> {
  const log: Observation[] = [];
  if (setup.attempts) setup.attempts.failed = undefined;
  try {
    await scenario.run(scenarioTarget(setup, names, log, scenario));
  } catch (error) {
    if (error instanceof ScenarioSkipped) return error;
    // However the client or a helper call wrapped it, a request that stayed unavailable stops the side as such.
    if (setup.attempts?.failed) return setup.attempts.failed;
    log.push({
      kind: 'stopped',
      label: 'stopped',
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    });
  }
  return log;
}

const matches = (scenario: Scenario, o: string) =>
  o.endsWith('.') ? scenario.id.startsWith(o) : scenario.id === o;

/** The scenarios `only` names; an entry that names none is refused before anything is sent. */
function selected(all: readonly Scenario[], only: readonly string[] | undefined): Scenario[] {
  if (!only || only.length === 0) return [...all];
  const unknown = only.filter((o) => !all.some((s) => matches(s, o)));
  if (unknown.length > 0) {
    throw new ConformanceError(
      `--only ${unknown.map((o) => `"${o}"`).join(', ')} names no scenario: the IDs start with ${[...new Set(all.map((s) => `${s.id.split('.')[0]}.`))].join(', ')} (--help lists them in the guide)`,
    );
  }
  return all.filter((s) => only.some((o) => matches(s, o)));
}

/** A new prefix per run: `conf-` and 8 random hex digits, then `-`. */
function newPrefix(): string {
  const bytes = new Uint8Array(4);
  crypto.getRandomValues(bytes);
  return `conf-${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}-`;
}

/** The suite's run: `runConformance` (load.ts) loads this module on a first run. */
export async function runSuite(options: ConformanceOptions = {}): Promise<ConformanceReport> {
  if (options.apiKey !== undefined && isLiveKey(options.apiKey)) {
    throw new ConformanceError(
      'Refusing a pk_live_ key: conformance creates test data and sends requests the service refuses; run it against your sandbox with a pk_sandbox_ key',
    );
  }
  const tiers = tiersOf(options.tier);
  const progress = options.onProgress ?? (() => {});
  const policy = policyOf(options, progress);
  if (options.baseUrl !== undefined && !URL.canParse(options.baseUrl))
    throw new ConformanceError(`--base-url is not a URL: ${options.baseUrl}`);
  const guided = guidedSettings(options);
  await loadContractCheck();
  const scenarios = selected(
    options.scenarios ?? (guided ? [...SCENARIOS, GUIDED_SCENARIO] : SCENARIOS),
    options.only,
  );
  const prefix = newPrefix();
  const names = runNames(prefix);
  const startedAt = new Date().toISOString();
  // The first requests (the helper probe and the account read) go before the limit is known.
  const pacer = createPacer(2);
  const target = await targetSide(options, pacer, policy);
  if (isLiveKey(target.apiKey)) {
    throw new ConformanceError('Refusing the target: its key is a pk_live_ key; use a sandbox');
  }
  // Without helpers the run cannot seed a verified user: said before anything is sent to the API.
  if (guided && guided.userId === undefined && !target.helpers)
    throw new ConformanceError(GUIDED_USER_NEEDED);
  const account = await readAccount(target);
  const rateLimit = account.rateLimit ?? FALLBACK_RATE_LIMIT;
  pacer.setLimit(rateLimit);
  const mock = createMockService();
  const receivers = guided ? await startReceivers(guided, mock) : undefined;
  try {
    if (typeof account.webhookUrl === 'string') {
      // A sandbox account has its webhook URL set in the dashboard: the reference's has one too (its own, never
      // the target's), so the account reads alike; its deliveries stay in-process, answered 200 (or, in a guided
      // run, reach the reference's own receiver).
      mock.helpers.accounts.update({ webhookUrl: REFERENCE_WEBHOOK_URL });
      // Only deliveries to that URL are answered here; a webhook scenario's own receiver is really reached.
      mock.helpers.webhooks.useFetch((url, init) =>
        url !== REFERENCE_WEBHOOK_URL
          ? fetch(url, init)
          : receivers
            ? fetch(receivers.reference.url, init)
            : Promise.resolve(new Response(null, { status: 200 })),
      );
    }
    return await compareAll({
      options,
      tiers,
      progress,
      scenarios,
      prefix,
      names,
      startedAt,
      target,
      account,
      rateLimit,
      mock,
      guided: guided && receivers ? { settings: guided, receivers } : undefined,
    });
  } finally {
    await receivers?.reference.close();
    await receivers?.target.close();
  }
}

/** The two receivers of a guided run: the target's on its port (the partner's tunnel), the reference's. */
async function startReceivers(
  guided: GuidedSettings,
  mock: MockService,
): Promise<{ target: ConformanceReceiver; reference: ConformanceReceiver }> {
  let target: ConformanceReceiver;
  try {
    target = await startReceiver(guided.webhookSecret, {
      port: guided.receiverPort,
      url: guided.receiverUrl,
    });
  } catch (error) {
    throw new ConformanceError(
      `Could not start the receiver on 127.0.0.1:${guided.receiverPort} (${describeError(error)}): choose another --receiver-port`,
    );
  }
  const reference = await startReceiver(mock.helpers.accounts.get().webhookSecret);
  return { target, reference };
}

/** What `compareAll` runs with: everything `runConformance` settled before the first scenario. */
interface RunPlan {
  options: ConformanceOptions;
  tiers: Tier[];
  progress: (line: string) => void;
  scenarios: Scenario[];
  prefix: string;
  names: RunNames;
  startedAt: string;
  target: SideSetup;
  account: { rateLimit: number | undefined; webhookUrl: unknown };
  rateLimit: number;
  mock: MockService;
  guided:
    | { settings: GuidedSettings; receivers: { target: ConformanceReceiver; reference: ConformanceReceiver } }
    | undefined;
}

/** Runs every chosen scenario on both sides and reports. */
async function compareAll(run: RunPlan): Promise<ConformanceReport> {
  const { options, tiers, progress, scenarios, prefix, names, startedAt, target, account, rateLimit, mock } =
    run;
  // The reference is paced alike, so both sides meet the same windows.
  const reference = inProcessSide('mock', mock, createPacer(rateLimit));
  if (run.guided) {
    const { settings, receivers } = run.guided;
    // The reference's waits are in-process, on its own clock: not paced.
    reference.guided = referenceGuided(
      mock,
      receivers.reference,
      quietClient(reference.baseUrl, reference.apiKey, reference.send, async () => {}, reference.clock),
    );
    target.guided = targetGuided(
      settings,
      receivers.target,
      quietClient(target.baseUrl, target.apiKey, target.send, () => target.pacer.next()),
      progress,
      target.helpers,
    );
  }
  // The reference offers its helpers only when the target has them too, so both sides take the same path.
  if (!target.helpers) reference.helpers = undefined;
  const where = options.baseUrl ?? 'in-process mock';
  progress(
    `conformance: ${where}, tiers ${tiers.join(', ')}, ${rateLimit} requests/min${account.rateLimit ? '' : ' (the account states no limits.rateLimit)'}, prefix ${prefix}${target.helpers ? '' : ' (no mock helpers: those scenarios skip)'}`,
  );
  const chosen = scenarios.filter((s) => tiers.includes(s.tier));
  const plan = effectsPlanned(chosen, target, account.webhookUrl, prefix);
  if (options.guided && chosen.includes(GUIDED_SCENARIO))
    plan.push(...guidedPlan(account.webhookUrl, options, run.guided?.settings.userId));
  for (const line of plan) progress(`  ${line}`);
  const clockBefore = await clockOf(target);
  const results: ScenarioResult[] = [];
  for (const [i, scenario] of scenarios.entries()) {
    results.push(await runScenario(scenario, tiers, reference, target, names));
    const r = results.at(-1);
    if (r && r.skippedFor !== 'tier') {
      const outcome = r.outcome === 'differs' ? `differs (${r.differences.length})` : r.outcome;
      progress(`[${i + 1}/${scenarios.length}] ${scenario.id}: ${outcome} (${r.ms} ms)`);
    }
  }
  const done = effectsDone(results, account.webhookUrl, clockBefore, await clockOf(target));
  for (const line of done) progress(`  ${line}`);
  const counts = { same: 0, differs: 0, skipped: 0, unavailable: 0 };
  for (const r of results) counts[r.outcome] += 1;
  const exitCode = counts.differs > 0 ? 1 : counts.unavailable > 0 ? 2 : 0;
  return {
    target: where,
    tiers,
    prefix,
    rateLimit,
    startedAt,
    ok: exitCode === 0,
    exitCode,
    counts,
    summary: summarize(results),
    mockOwn: [...new Set(results.flatMap((r) => r.mockOwn ?? []))],
    effects: [...plan, ...done],
    coverage: coverageOf(results),
    results,
  };
}

/**
 * What a guided run asks of the partner, said before it starts. The spec sets the webhook URL and secret in the
 * dashboard only (6), so the run cannot point the account at its receiver: it checks and says so.
 */
function guidedPlan(webhookUrl: unknown, options: ConformanceOptions, userId: string | undefined): string[] {
  const receiverUrl = options.receiverUrl ?? '';
  const port = options.receiverPort ?? DEFAULT_RECEIVER_PORT;
  const lines = [
    `Guided: will create one standard transaction for ${userId ?? "a KYC-verified user it seeds through the target's helpers"} and wait for you to send its testnet deposit (the address, amount and deadline are printed when it is created).`,
    `Deliveries: the run's receiver listens on 127.0.0.1:${port}; ${receiverUrl} must reach it (your tunnel). Each delivery's signature is verified with the webhook secret you gave.`,
  ];
  lines.push(
    webhookUrl === receiverUrl
      ? `The account's webhook URL is ${receiverUrl}: deliveries reach the run.`
      : `The account's webhook URL is ${typeof webhookUrl === 'string' ? webhookUrl : 'not set'}, not ${receiverUrl}: the API cannot set it; set it in the dashboard (and back after the run), or no delivery reaches the run.`,
  );
  return lines;
}

/**
 * The webhook URL the reference's account carries when the target's has one: the reference never takes the
 * target's settings, and its deliveries never leave the process.
 */
const REFERENCE_WEBHOOK_URL = 'https://reference.conformance.invalid/webhooks';

/** Runs one scenario on both sides and compares them. */
async function runScenario(
  scenario: Scenario,
  tiers: readonly Tier[],
  reference: SideSetup,
  target: SideSetup,
  names: RunNames,
): Promise<ScenarioResult> {
  const base = { id: scenario.id, title: scenario.title, spec: scenario.spec, tier: scenario.tier };
  const started = Date.now();
  if (!tiers.includes(scenario.tier)) {
    return {
      ...base,
      outcome: 'skipped',
      reason: `tier ${scenario.tier} not chosen`,
      skippedFor: 'tier',
      differences: [],
      mock: [],
      sandbox: [],
      ms: 0,
    };
  }
  const [mock, sandbox] = await Promise.all([
    runSide(reference, names, scenario),
    runSide(target, names, scenario),
  ]);
  const ms = Date.now() - started;
  const observed = (side: SideOutcome) => (Array.isArray(side) ? side : []);
  if (sandbox instanceof TargetUnavailable || mock instanceof TargetUnavailable) {
    return {
      ...base,
      outcome: 'unavailable',
      reason: sandbox instanceof TargetUnavailable ? sandbox.message : String(mock),
      differences: [],
      mock: observed(mock),
      sandbox: observed(sandbox),
      ms,
    };
  }
  if (mock instanceof ScenarioSkipped || sandbox instanceof ScenarioSkipped) {
    return {
      ...base,
      outcome: 'skipped',
      reason:
        sandbox instanceof ScenarioSkipped
          ? sandbox.message
          : `on the mock: ${mock instanceof ScenarioSkipped ? mock.message : ''}`,
      skippedFor: sandbox instanceof ScenarioSkipped && sandbox.need === 'helpers' ? 'helpers' : 'scenario',
      differences: [],
      mock: observed(mock),
      sandbox: observed(sandbox),
      ms,
    };
  }
  const { differences, notCompared, mockOwn } = compareSides(mock, sandbox);
  return {
    ...base,
    outcome: differences.length ? 'differs' : 'same',
    differences,
    ...(notCompared.length ? { notCompared } : {}),
    ...(mockOwn.length ? { mockOwn } : {}),
    mock,
    sandbox,
    ms,
  };
}

/** The target's clock (a mock's, through its helpers), or undefined when it has none or it cannot be read. */
async function clockOf(target: SideSetup): Promise<number | undefined> {
  if (!target.helpers) return undefined;
  try {
    return Date.parse(await target.helpers.clock.now());
  } catch {
    return undefined;
  }
}

/** What the run will do to the target, said before it starts. */
function effectsPlanned(
  chosen: readonly Scenario[],
  target: SideSetup,
  webhookUrl: unknown,
  prefix: string,
): string[] {
  const writes = chosen.some((s) => s.tier !== 'read-only');
  if (!writes)
    return ['Will change nothing on the target: read-only sends reads and requests without a valid key.'];
  const lines = [
    `Will create test users and transactions on the target, each named with ${prefix} (deviceId, partnerReference), and send writes the service should refuse.`,
  ];
  if (typeof webhookUrl === 'string')
    lines.push(`Their events will be delivered to the account's webhook URL, ${webhookUrl}.`);
  if (target.helpers && chosen.some((s) => s.tier === 'mock-helpers'))
    lines.push(
      "Will use the target's test helpers: move its clock forward, point its webhook URL at the run's receiver for each webhook scenario (and back), and create a rate-limited account.",
    );
  return lines;
}

/** What the run did to the target, said when it ends: what it created, and how far the target's clock moved. */
function effectsDone(
  results: readonly ScenarioResult[],
  webhookUrl: unknown,
  clockBefore: number | undefined,
  clockAfter: number | undefined,
): string[] {
  const created = (path: string) =>
    results.reduce(
      (n, r) =>
        n +
        r.sandbox.filter(
          (o) => o.kind === 'exchange' && o.method === 'POST' && o.path === path && o.status === 201,
        ).length,
      0,
    );
  const [users, transactions] = [
    created('/v2/users'),
    created('/v2/transactions') + created('/v2/transactions/prefunded'),
  ];
  if (users + transactions === 0 && clockBefore === clockAfter) return ['Changed nothing on the target.'];
  const lines = [
    `Created ${users} user(s) and ${transactions} transaction(s) on the target through the API.`,
  ];
  if (typeof webhookUrl === 'string' && users + transactions > 0)
    lines.push(`Their events went to the account's webhook URL, ${webhookUrl}.`);
  if (clockBefore !== undefined && clockAfter !== undefined && clockAfter !== clockBefore)
    lines.push(`Moved the target's clock ${formatSpan(clockAfter - clockBefore)} forward.`);
  return lines;
}

function formatSpan(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  return minutes >= 120
    ? `${(minutes / 60).toFixed(1)} h`
    : minutes >= 1
      ? `${minutes} min`
      : `${Math.round(ms / 1000)} s`;
}
