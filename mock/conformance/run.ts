/**
 * The suite's run, in phases: settle the options (before anything is sent), reach the target (its helpers, its
 * key, its account and rate limit), ready the reference and the receivers, run each scenario on both sides and
 * compare them (a scenario that differs is sent again, so a difference that does not come back is named flaky),
 * probe each field rule at its boundaries when asked (a case that differs is sent again alike), then report, the
 * exit status following the most severe line.
 */

import { describeError } from '../../src/shared/describe-error.js';
import { virtualClientClock } from '../http/client-clock.js';
import { createMockFetch } from '../http/fetch.js';
import { createMockService, type MockService } from '../service.js';
import { objectOf } from '../state/records.js';
import { compareSides } from './compare.js';
import { loadContractCheck } from './contract-problems.js';
import { coverageOf } from './coverage.js';
import { clockOf, effectsDone, effectsPlanned, guidedPlan } from './effects.js';
import { ConformanceError, TargetUnavailable } from './errors.js';
import { GUIDED_USER_NEEDED, type GuidedSettings, referenceGuided, targetGuided } from './guided.js';
import { createPacer, type Pacer } from './pace.js';
import { DEFAULT_PROBES } from './probes/cases.js';
import { runProbes } from './probes/phase.js';
import { probeEffects } from './probes/report.js';
import { tierNotChosen } from './probes/types.js';
import {
  DEFAULT_RECEIVER_PORT,
  type ReceiverSessions,
  receiverAdvice,
  receiverSessions,
} from './receivers.js';
import { summarize } from './report.js';
import { SCENARIOS } from './scenarios/index.js';
import { GUIDED_SCENARIO } from './scenarios/transactions.js';
import { type ConformanceReceiver, type ReceiverPlace, startReceiver } from './scenarios/webhook-receiver.js';
import { DEFAULT_POLICY, type Sending, type SendPolicy, sideClient } from './send.js';
import {
  probeHelpers,
  type RunNames,
  runNames,
  ScenarioSkipped,
  type SideSetup,
  scenarioTarget,
} from './target.js';
import {
  type ConformanceOptions,
  type ConformanceReport,
  type Difference,
  type Observation,
  OUTCOMES,
  type Outcome,
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

function policyOf(options: ConformanceOptions, progress: (line: string) => void): SendPolicy {
  const { timeoutMs, retries, backoff } = options;
  for (const [name, value] of Object.entries({ timeoutMs, retries, backoff }))
    if (value !== undefined && !(Number.isFinite(value) && value >= 0))
      throw new ConformanceError(`${name} must be a number of 0 or more; got ${value}`);
  return {
    timeoutMs: timeoutMs || DEFAULT_POLICY.timeoutMs,
    retries: Math.floor(retries ?? DEFAULT_POLICY.retries),
    backoff: backoff ?? DEFAULT_POLICY.backoff,
    progress,
  };
}

function tiersOf(tier: ConformanceOptions['tier']): Tier[] {
  const asked = tier === undefined ? TIERS : typeof tier === 'string' ? [tier] : tier;
  const unknown = asked.find((t) => !TIERS.includes(t));
  if (unknown !== undefined) throw new ConformanceError(`Unknown tier "${unknown}": use ${TIERS.join(', ')}`);
  return TIERS.filter((t) => asked.includes(t));
}

/** The run's one receiver when `receiverUrl` names the URL the target delivers to: that URL, and the local port. */
function receiverPlace(
  options: ConformanceOptions,
): (ReceiverPlace & { url: string; port: number }) | undefined {
  const { receiverUrl } = options;
  if (receiverUrl === undefined) return undefined;
  if (!URL.canParse(receiverUrl))
    throw new ConformanceError(`--receiver-url must be a URL the target can deliver to; got ${receiverUrl}`);
  const port = options.receiverPort ?? DEFAULT_RECEIVER_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new ConformanceError(`--receiver-port must be a port number (0-65535); got ${port}`);
  return { url: receiverUrl, port, ...(options.receiverHost ? { host: options.receiverHost } : {}) };
}

/** A guided run's options, checked before anything is sent; undefined when the run is not guided. */
function guidedSettings(
  options: ConformanceOptions,
  place: ReturnType<typeof receiverPlace>,
): GuidedSettings | undefined {
  if (!options.guided) return undefined;
  const { webhookSecret } = options;
  if (!place)
    throw new ConformanceError(
      "--guided needs --receiver-url: the public URL (your tunnel to the run's receiver on 127.0.0.1) set as your account's webhook URL",
    );
  if (!webhookSecret?.trim())
    throw new ConformanceError(
      "--guided needs the account's webhook secret to verify each delivery: give --webhook-secret or set INR_PAYOUTS_WEBHOOK_SECRET",
    );
  return {
    webhookSecret: webhookSecret.trim(),
    userId: options.userId?.trim() || undefined,
    onDeposit: options.onDeposit,
    pollIntervalMs: options.pollIntervalMs ?? 5_000,
    timeoutMs: options.guidedTimeoutMs ?? 3_600_000,
  };
}

/** A side's sending, before any request: `clock` only for an in-process mock, whose waits are virtual. */
function sendingOf(
  send: typeof fetch,
  baseUrl: string,
  pacer: Pacer,
  { policy, clock }: { policy?: SendPolicy; clock?: Sending['clock'] } = {},
): Sending {
  return {
    send,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    pacer,
    policy,
    clock,
    uploads: new Set(),
    failed: undefined,
    sent: { requests: 0, helpers: 0 },
  };
}

// The mock service without msw's adapter (`createMockService` would load msw): the command line runs without it.
function inProcessSide(side: Side, mock: MockService, pacer: Pacer): SideSetup {
  const send = createMockFetch(mock.baseUrl, mock.dispatch);
  const sending = sendingOf(send, mock.baseUrl, pacer, { clock: virtualClientClock(mock.clock) });
  return { side, apiKey: mock.sandboxKey, sending, helpers: mock.helpers };
}

/** Picks the target's side: a base URL (a standalone mock or a sandbox) or a second in-process mock. */
async function targetSide(options: ConformanceOptions, pacer: Pacer, policy: SendPolicy): Promise<SideSetup> {
  if (options.baseUrl === undefined) return inProcessSide('sandbox', createMockService(), pacer);
  const sending = sendingOf(options.fetch ?? globalThis.fetch, options.baseUrl, pacer, { policy });
  const helpers = await probeHelpers(sending);
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
  return { side: 'sandbox', apiKey, sending, helpers };
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
  const url = `${setup.sending.baseUrl}/v2/account`;
  let status = 0;
  let body: unknown;
  try {
    const { fetch: send } = sideClient(setup.sending, { apiKey: setup.apiKey, paced: true });
    const response = await send(url, { headers: { authorization: `Bearer ${setup.apiKey}` } });
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

async function runSide(
  setup: SideSetup,
  names: RunNames,
  scenario: Scenario,
  receivers: ReceiverSessions,
): Promise<SideOutcome> {
  const log: Observation[] = [];
  setup.sending.failed = undefined;
  try {
    await scenario.run(scenarioTarget(setup, names, log, scenario, receivers));
  } catch (error) {
    if (error instanceof ScenarioSkipped) return error;
    log.push({
      kind: 'stopped',
      label: 'stopped',
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    });
  }
  // However the client or a helper call wrapped it, a request that stayed unavailable stops the side as such.
  return setup.sending.failed ?? log;
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

/** A new prefix per run: `conf-` and 8 random hex digits (a random UUID's first 8), then `-`. */
const newPrefix = () => `conf-${crypto.randomUUID().slice(0, 8)}-`;

/** The suite's run: `runConformance` (load.ts) loads this module on a first run. */
export async function runSuite(options: ConformanceOptions = {}): Promise<ConformanceReport> {
  // 1. The options, settled before anything is sent.
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
  const place = receiverPlace(options);
  const guided = guidedSettings(options, place);
  await loadContractCheck();
  const scenarios = selected(
    options.scenarios ?? (guided ? [...SCENARIOS, GUIDED_SCENARIO] : SCENARIOS),
    options.only,
  );
  const prefix = newPrefix();
  const startedAt = new Date().toISOString();
  // 2. The target: its helpers and key, then its account, whose rate limit paces the rest.
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
  // 3. The reference (paced alike, so both sides meet the same windows) and the receivers.
  const mock = createMockService();
  const reference = inProcessSide('mock', mock, createPacer(rateLimit));
  const shared = place && (await startShared(place, guided?.webhookSecret ?? ''));
  const referenceReceiver = guided && (await startReceiver(mock.helpers.accounts.get().webhookSecret));
  try {
    if (typeof account.webhookUrl === 'string') referenceWebhooks(mock, referenceReceiver);
    if (guided && shared && referenceReceiver) {
      // The waits poll through the side's own client, unrecorded; the reference's on its own clock, not paced.
      const quiet = (side: SideSetup, paced: boolean) =>
        sideClient(side.sending, { apiKey: side.apiKey, paced }).client;
      reference.guided = referenceGuided(mock, referenceReceiver, quiet(reference, false));
      target.guided = targetGuided(guided, shared, quiet(target, true), progress, target.helpers);
    }
    // The reference offers its helpers only when the target has them too, so both sides take the same path.
    if (!target.helpers) reference.helpers = undefined;
    const where = options.baseUrl ?? 'in-process mock';
    progress(
      `conformance: ${where}, tiers ${tiers.join(', ')}, ${rateLimit} requests/min${account.rateLimit ? '' : ' (the account states no limits.rateLimit)'}, prefix ${prefix}${target.helpers ? '' : ' (no mock helpers: those scenarios skip)'}`,
    );
    const chosen = scenarios.filter((s) => tiers.includes(s.tier));
    const plan = effectsPlanned(chosen, target, account.webhookUrl, prefix);
    if (guided && chosen.includes(GUIDED_SCENARIO))
      plan.push(...guidedPlan(account.webhookUrl, options, guided.userId));
    for (const line of plan) progress(`  ${line}`);
    // 4. Each scenario on both sides, compared (and sent again when it would fail the run).
    const clockBefore = await clockOf(target);
    const receivers = { target: receiverSessions(shared), reference: receiverSessions() };
    const sides = { reference, target, names: runNames(prefix), receivers, port: options.receiverPort };
    const results: ScenarioResult[] = [];
    for (const [i, scenario] of scenarios.entries()) {
      const r = await runScenario(scenario, tiers, sides, { progress, failOnReview: options.failOnReview });
      results.push(r);
      if (r.skippedFor !== 'tier') {
        const outcome = r.differences.length ? `${r.outcome} (${r.differences.length})` : r.outcome;
        progress(`[${i + 1}/${scenarios.length}] ${scenario.id}: ${outcome} (${r.ms} ms)`);
      }
    }
    // 5. Each field rule at its boundaries (probes/), when asked for: the command line asks unless --probe-cap
    // is 0 or --only is given.
    const probes =
      options.probes === undefined || options.probes === false
        ? undefined
        : await runProbes({
            reference,
            target,
            names: sides.names,
            tiers,
            settings: { ...DEFAULT_PROBES, ...options.probes },
            progress,
          });
    const { sent } = target.sending;
    const done = [
      ...probeEffects(probes),
      ...effectsDone(results, account.webhookUrl, clockBefore, await clockOf(target)),
      `Sent ${sent.requests} requests to the target${sent.helpers ? `, ${sent.helpers} of them to its test helpers` : ''}.`,
    ];
    for (const line of done) progress(`  ${line}`);
    // 6. The report; the exit status follows its most severe line, the probes' with the scenarios'.
    const counts = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
    for (const r of results) counts[r.outcome] += 1;
    const breakingCases = probes?.differences.filter((d) => d.severity === 'breaking').length ?? 0;
    const failing = counts.differs + breakingCases + (options.failOnReview ? counts.review : 0);
    const uncompared = counts.unavailable + counts['not-compared'] + (probes?.unavailable.length ?? 0);
    const exitCode = failing > 0 ? 1 : uncompared > 0 ? 2 : 0;
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
      requests: sent.requests,
      coverage: coverageOf(results, probes),
      ...(probes ? { probes } : {}),
      results,
    };
  } finally {
    await referenceReceiver?.close();
    await shared?.close();
  }
}

/**
 * A sandbox account has its webhook URL set in the dashboard: the reference's has one too (its own, never the
 * target's), so the account reads alike; its deliveries stay in-process, answered 200 (or, in a guided run,
 * reach the reference's own receiver). A webhook scenario's own receiver is really reached.
 */
function referenceWebhooks(mock: MockService, receiver: ConformanceReceiver | undefined): void {
  mock.helpers.accounts.update({ webhookUrl: REFERENCE_WEBHOOK_URL });
  mock.helpers.webhooks.useFetch((url, init) =>
    url !== REFERENCE_WEBHOOK_URL
      ? fetch(url, init)
      : receiver
        ? fetch(receiver.url, init)
        : Promise.resolve(new Response(null, { status: 200 })),
  );
}

/** The run's one receiver, on the port `--receiver-url` reaches. */
async function startShared(
  place: ReceiverPlace & { port: number },
  secret: string,
): Promise<ConformanceReceiver> {
  try {
    return await startReceiver(secret, place);
  } catch (error) {
    throw new ConformanceError(
      `Could not start the receiver on ${place.host ?? '127.0.0.1'}:${place.port} (${describeError(error)}): choose another --receiver-port`,
    );
  }
}

/**
 * The webhook URL the reference's account carries when the target's has one: the reference never takes the
 * target's settings, and its deliveries never leave the process.
 */
const REFERENCE_WEBHOOK_URL = 'https://reference.conformance.invalid/webhooks';

/** The two sides of a run, and what their scenarios share. */
interface Sides {
  reference: SideSetup;
  target: SideSetup;
  names: RunNames;
  receivers: Record<'target' | 'reference', ReceiverSessions>;
  /** `--receiver-port`, for the advice when the target's receiver got nothing. */
  port: number | undefined;
}

/** A scenario's result but for what names it and its time. */
type Compared = Omit<ScenarioResult, 'id' | 'title' | 'spec' | 'tier' | 'ms'>;

/** The most severe line's outcome. */
const outcomeOf = (differences: readonly Difference[]): Outcome =>
  (['breaking', 'review', 'flaky'] as const)
    .map((severity, i) => (differences.some((d) => d.severity === severity) ? OUTCOMES[i] : undefined))
    .find((o) => o !== undefined) ?? 'same';

/**
 * Runs one scenario on both sides and compares them. One whose differences fail the run is sent again: a
 * difference that does not come back is named flaky, not drift.
 */
async function runScenario(
  scenario: Scenario,
  tiers: readonly Tier[],
  sides: Sides,
  options: Pick<ConformanceOptions, 'failOnReview'> & { progress: (line: string) => void },
): Promise<ScenarioResult> {
  const base = { id: scenario.id, title: scenario.title, spec: scenario.spec, tier: scenario.tier };
  if (!tiers.includes(scenario.tier)) {
    return {
      ...base,
      outcome: 'skipped',
      reason: tierNotChosen(scenario.tier),
      skippedFor: 'tier',
      differences: [],
      mock: [],
      sandbox: [],
      ms: 0,
    };
  }
  const started = Date.now();
  const first = await sendBoth(scenario, sides);
  const fails = first.outcome === 'differs' || (first.outcome === 'review' && options.failOnReview);
  // A guided scenario is not sent again: it would ask the partner for another deposit.
  if (!fails || scenario === GUIDED_SCENARIO) return { ...base, ...first, ms: Date.now() - started };
  options.progress(`  ${scenario.id}: sent again, to tell a difference that stays from one that does not`);
  const again = await sendBoth(scenario, sides);
  if (!['differs', 'review', 'flaky', 'same'].includes(again.outcome))
    return { ...base, ...first, ms: Date.now() - started };
  const back = new Set(again.differences.map((d) => d.text));
  const differences = first.differences.map((d) =>
    back.has(d.text) ? d : { ...d, severity: 'flaky' as const },
  );
  return { ...base, ...first, outcome: outcomeOf(differences), differences, ms: Date.now() - started };
}

/** Runs the scenario once on each side, side by side, and compares what they observed. */
async function sendBoth(scenario: Scenario, sides: Sides): Promise<Compared> {
  const { reference, target, names, receivers } = sides;
  receivers.reference.reset();
  receivers.target.reset();
  const [mock, sandbox] = await Promise.all([
    runSide(reference, names, scenario, receivers.reference),
    runSide(target, names, scenario, receivers.target),
  ]);
  const observed = (side: SideOutcome) => (Array.isArray(side) ? side : []);
  const observations = { differences: [], mock: observed(mock), sandbox: observed(sandbox) };
  if (sandbox instanceof TargetUnavailable || mock instanceof TargetUnavailable) {
    const reason = sandbox instanceof TargetUnavailable ? sandbox.message : String(mock);
    return { ...observations, outcome: 'unavailable', reason };
  }
  if (mock instanceof ScenarioSkipped || sandbox instanceof ScenarioSkipped) {
    const reason = sandbox instanceof ScenarioSkipped ? sandbox.message : `on the mock: ${String(mock)}`;
    const skippedFor =
      sandbox instanceof ScenarioSkipped && sandbox.need === 'helpers' ? 'helpers' : 'scenario';
    return { ...observations, outcome: 'skipped', reason, skippedFor };
  }
  const unreached = receiverAdvice(receivers.target, receivers.reference, sides.port);
  if (unreached) return { ...observations, outcome: 'not-compared', reason: unreached };
  const { differences, notCompared, mockOwn } = compareSides(mock, sandbox);
  return {
    outcome: outcomeOf(differences),
    differences,
    ...(notCompared.length ? { notCompared } : {}),
    ...(mockOwn.length ? { mockOwn } : {}),
    mock,
    sandbox,
  };
}
