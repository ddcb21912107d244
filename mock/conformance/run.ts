/**
 * `runConformance`: runs the suite's scenarios on the reference (an in-process mock) and on the target, and
 * compares what each side observed.
 */
import { virtualClientClock } from '../http/client-clock.js';
import { createMockFetch } from '../http/fetch.js';
import { createMockSimulation, type MockSimulation } from '../simulation.js';
import { objectOf } from '../state/records.js';
import { compareObservations } from './compare.js';
import { createPacer, type Pacer } from './pace.js';
import { SCENARIOS } from './scenarios/index.js';
import {
  ConformanceError,
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
  type Observation,
  type Scenario,
  type ScenarioResult,
  type Side,
  TIERS,
  type Tier,
} from './types.js';

function tiersOf(tier: ConformanceOptions['tier']): Tier[] {
  const asked = tier === undefined ? TIERS : typeof tier === 'string' ? [tier] : tier;
  for (const t of asked) {
    if (!TIERS.includes(t)) throw new ConformanceError(`Unknown tier "${t}": use ${TIERS.join(', ')}`);
  }
  return TIERS.filter((t) => asked.includes(t));
}

// The simulation without msw's adapter (`createMockService` would load msw): the command line runs without it.
function inProcessSide(side: Side, mock: MockSimulation, pacer: Pacer): SideSetup {
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
async function targetSide(options: ConformanceOptions, pacer: Pacer): Promise<SideSetup> {
  if (options.baseUrl === undefined) return inProcessSide('sandbox', createMockSimulation(), pacer);
  if (!URL.canParse(options.baseUrl))
    throw new ConformanceError(`--base-url is not a URL: ${options.baseUrl}`);
  const send = options.fetch ?? globalThis.fetch;
  const helpers = await probeHelpers(options.baseUrl, send, pacer);
  const apiKey = options.apiKey ?? (helpers ? (await helpers.accounts.get()).keys.sandbox : undefined);
  if (apiKey === undefined) {
    throw new ConformanceError(
      `${options.baseUrl} has no mock test helpers to read a key from: give the sandbox key (--api-key pk_sandbox_…)`,
    );
  }
  return { side: 'sandbox', baseUrl: options.baseUrl.replace(/\/+$/, ''), apiKey, send, pacer, helpers };
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
  try {
    await setup.pacer.next();
    const response = await setup.send(url, { headers: { Authorization: `Bearer ${setup.apiKey}` } });
    status = response.status;
    body = await response.json().catch(() => undefined);
  } catch (error) {
    throw new ConformanceError(
      `Could not reach ${url} (${error instanceof Error ? error.message : String(error)}): check the base URL`,
    );
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

async function runSide(
  setup: SideSetup,
  names: RunNames,
  scenario: Scenario,
): Promise<Observation[] | string> {
  const log: Observation[] = [];
  try {
    await scenario.run(scenarioTarget(setup, names, log));
  } catch (error) {
    if (error instanceof ScenarioSkipped) return error.message;
    log.push({
      kind: 'stopped',
      label: 'stopped',
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    });
  }
  return log;
}

function selected(scenario: Scenario, only: readonly string[] | undefined): boolean {
  if (!only || only.length === 0) return true;
  return only.some((o) => (o.endsWith('.') ? scenario.id.startsWith(o) : scenario.id === o));
}

/** A new prefix per run: `conf-` and 8 random hex digits, then `-`. */
function newPrefix(): string {
  const bytes = new Uint8Array(4);
  crypto.getRandomValues(bytes);
  return `conf-${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}-`;
}

/**
 * Runs the conformance suite: each scenario on the reference (an in-process mock) and on the target (`baseUrl`,
 * or a second in-process mock when it is left out), then compares the two sides by shape (`compareObservations`).
 * Refuses a `pk_live_` key before anything is sent. Against a target without the mock's helpers, scenarios that
 * need them are skipped with the reason. Every request to the target is paced to its account's
 * `limits.rateLimit`, read first, and everything created is named with the run's `prefix`.
 * @example
 * ```ts
 * import { runConformance } from 'inr-payouts/mock';
 *
 * const report = await runConformance({ tier: 'read-only' }); // the in-process mock against itself
 * if (!report.ok) throw new Error(report.results.flatMap((r) => r.differences.map((d) => d.text)).join('\n'));
 * ```
 */
export async function runConformance(options: ConformanceOptions = {}): Promise<ConformanceReport> {
  if (options.apiKey?.startsWith('pk_live_')) {
    throw new ConformanceError(
      'Refusing a pk_live_ key: conformance creates test data and sends requests the service refuses; run it against your sandbox with a pk_sandbox_ key',
    );
  }
  const tiers = tiersOf(options.tier);
  const progress = options.onProgress ?? (() => {});
  const prefix = newPrefix();
  const names = runNames(prefix);
  const startedAt = new Date().toISOString();
  // The first requests (the helper probe and the account read) go before the limit is known.
  const pacer = createPacer(2);
  const target = await targetSide(options, pacer);
  if (target.apiKey.startsWith('pk_live_')) {
    throw new ConformanceError('Refusing the target: its key is a pk_live_ key; use a sandbox');
  }
  const account = await readAccount(target);
  const rateLimit = account.rateLimit ?? FALLBACK_RATE_LIMIT;
  pacer.setLimit(rateLimit);
  const mock = createMockSimulation();
  if (typeof account.webhookUrl === 'string') {
    // A sandbox account has its webhook URL set in the dashboard: so has the reference's, or the account read would
    // differ by configuration. The reference's deliveries stay in-process, answered 200.
    mock.helpers.accounts.update({ webhookUrl: account.webhookUrl });
    mock.helpers.webhooks.useFetch(async () => new Response(null, { status: 200 }));
  }
  // The reference is paced alike, so both sides meet the same windows.
  const reference = inProcessSide('mock', mock, createPacer(rateLimit));
  // The reference offers its helpers only when the target has them too, so both sides take the same path.
  if (!target.helpers) reference.helpers = undefined;
  const where = options.baseUrl ?? 'in-process mock';
  progress(
    `conformance: ${where}, tiers ${tiers.join(', ')}, ${rateLimit} requests/min${account.rateLimit ? '' : ' (the account states no limits.rateLimit)'}, prefix ${prefix}${target.helpers ? '' : ' (no mock helpers: those scenarios skip)'}`,
  );
  const scenarios = (options.scenarios ?? SCENARIOS).filter((s) => selected(s, options.only));
  const results: ScenarioResult[] = [];
  for (const [i, scenario] of scenarios.entries()) {
    const base = { id: scenario.id, title: scenario.title, spec: scenario.spec, tier: scenario.tier };
    const started = Date.now();
    if (!tiers.includes(scenario.tier)) {
      results.push({
        ...base,
        outcome: 'skipped',
        reason: `tier ${scenario.tier} not chosen`,
        differences: [],
        mock: [],
        sandbox: [],
        ms: 0,
      });
      continue;
    }
    const [mock, sandbox] = await Promise.all([
      runSide(reference, names, scenario),
      runSide(target, names, scenario),
    ]);
    const ms = Date.now() - started;
    const done = (outcome: string) =>
      progress(`[${i + 1}/${scenarios.length}] ${scenario.id}: ${outcome} (${ms} ms)`);
    if (typeof mock === 'string' || typeof sandbox === 'string') {
      const reason = typeof sandbox === 'string' ? sandbox : `on the mock: ${mock}`;
      done('skipped');
      results.push({
        ...base,
        outcome: 'skipped',
        reason,
        differences: [],
        mock: typeof mock === 'string' ? [] : mock,
        sandbox: typeof sandbox === 'string' ? [] : sandbox,
        ms,
      });
      continue;
    }
    const differences = compareObservations(mock, sandbox);
    done(differences.length ? `differs (${differences.length})` : 'same');
    results.push({
      ...base,
      outcome: differences.length ? 'differs' : 'same',
      differences,
      mock,
      sandbox,
      ms,
    });
  }
  const counts = { same: 0, differs: 0, skipped: 0 };
  for (const r of results) counts[r.outcome] += 1;
  return { target: where, tiers, prefix, rateLimit, startedAt, ok: counts.differs === 0, counts, results };
}
