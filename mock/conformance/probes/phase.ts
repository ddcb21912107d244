/**
 * The probe phase of a run: every case of `cases.ts` sent to the reference and to the target, through each
 * side's recording, paced and retried `fetch` (the scenarios' own), in the tier it belongs to, and the two
 * answers compared by status and error identifier. A disagreement is named with the rule its case probes.
 */
import { CONTRACTS } from '../../../src/endpoints/index.js';
import { objectOf } from '../../state/records.js';
import { TargetUnavailable } from '../attempts.js';
import { type RunNames, type SideSetup, scenarioTarget } from '../target.js';
import type { Observation, ScenarioTarget, Tier } from '../types.js';
import {
  type ProbeCase,
  type ProbeRequest,
  type ProbeSettings,
  probeCases,
  validOnlyOnAMock,
} from './cases.js';
import { type ProbeDifference, type ProbeEndpoint, type ProbeReport, tierNotChosen } from './types.js';

/** What the phase runs with: the run's two sides, its names and tiers. */
export interface ProbeRun {
  reference: SideSetup;
  target: SideSetup;
  names: RunNames;
  tiers: readonly Tier[];
  settings: ProbeSettings;
  progress: (line: string) => void;
}

/** An answer as the probes compare it: the status, and the error identifier of a refusal. */
export function answerOf(status: number, body: unknown): string {
  const record = objectOf(body);
  const refused = status >= 400 || record?.success === false;
  if (!refused) return String(status);
  // Shape A names the refusal in `code`, shape B (`success: false`) in `error` (spec 7.1).
  const id = record?.success === false ? record.error : (record?.code ?? record?.error);
  return typeof id === 'string' ? `${status} ${id}` : String(status);
}

function urlOf(t: ScenarioTarget, request: ProbeRequest): string {
  const query = request.query ? `?${new URLSearchParams(request.query)}` : '';
  return `${t.baseUrl}${request.path}${query}`;
}

async function send(t: ScenarioTarget, request: ProbeRequest): Promise<string> {
  const response = await t.fetch(urlOf(t, request), {
    method: request.method,
    headers: {
      Authorization: `Bearer ${t.apiKey}`,
      ...(request.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      // A write carries a key of its own, as the client sends it: a transient failure is then retried safely.
      ...(request.method === 'GET' ? {} : { 'Idempotency-Key': crypto.randomUUID() }),
    },
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return answerOf(response.status, body);
}

/** The developer fee as the `account.developer-fee-update` scenario leaves it: off. */
const FEE_OFF: ProbeRequest = {
  method: 'PUT',
  path: '/v2/account/developer-fee',
  body: { enabled: false, percent: 0 },
};

/** One side's answers to `cases` in order; stops at a request the target stayed unavailable for. */
async function sideAnswers(
  setup: SideSetup,
  names: RunNames,
  group: { id: string; tier: Tier; cases: readonly ProbeCase[] },
): Promise<{ answers: string[]; unavailable?: TargetUnavailable }> {
  const log: Observation[] = [];
  const t = scenarioTarget(setup, names, log, { id: group.id, tier: group.tier });
  const context = { mobile: () => t.newMobile(), name: (what: string) => t.name(what) };
  const answers: string[] = [];
  try {
    for (const c of group.cases) answers.push(await send(t, c.request(context)));
    if (group.tier === 'mock-helpers' && group.cases.some((c) => validOnlyOnAMock(c.operationId)))
      await send(t, FEE_OFF);
  } catch (error) {
    if (error instanceof TargetUnavailable) return { answers, unavailable: error };
    throw error;
  }
  return { answers };
}

const createsUser = (operationId: string) =>
  Object.hasOwn(CONTRACTS, operationId) &&
  CONTRACTS[operationId as keyof typeof CONTRACTS].creates?.kind === 'user';

/** Groups cases by endpoint and tier, in their order. */
function groups(cases: readonly ProbeCase[]): { id: string; tier: Tier; cases: ProbeCase[] }[] {
  const byKey = new Map<string, { id: string; tier: Tier; cases: ProbeCase[] }>();
  for (const c of cases) {
    const key = `${c.operationId} ${c.tier}`;
    const group = byKey.get(key) ?? { id: `probe.${c.operationId}`, tier: c.tier, cases: [] };
    group.cases.push(c);
    byKey.set(key, group);
  }
  return [...byKey.values()];
}

/** Runs every case the run's tiers allow on both sides, and compares each pair of answers. */
export async function runProbes(run: ProbeRun): Promise<ProbeReport> {
  const started = Date.now();
  const cases = await probeCases(run.settings);
  const endpoints = new Map<string, ProbeEndpoint>();
  const differences: ProbeDifference[] = [];
  const unavailable: string[] = [];
  let created = 0;
  const sendable = cases.filter((c) => run.tiers.includes(c.tier)).length;
  run.progress(
    `probes: ${cases.length} cases from seed ${run.settings.seed} (at most ${run.settings.cap} per endpoint), ${sendable} in the chosen tiers`,
  );
  for (const group of groups(cases)) {
    const first = group.cases[0];
    if (!first) continue;
    const entry = endpoints.get(first.endpoint) ?? {
      endpoint: first.endpoint,
      operationId: first.operationId,
      compared: 0,
      notSent: 0,
      differing: 0,
    };
    endpoints.set(first.endpoint, entry);
    const why = !run.tiers.includes(group.tier)
      ? tierNotChosen(group.tier)
      : group.tier === 'mock-helpers' && !run.target.helpers
        ? `${validOnlyOnAMock(group.cases[0]?.operationId ?? '') ?? 'they need a mock'}: sent only to a target with the mock's helpers`
        : undefined;
    if (why) {
      entry.notSent += group.cases.length;
      entry.why = why;
      continue;
    }
    const [mock, sandbox] = await Promise.all([
      sideAnswers(run.reference, run.names, group),
      sideAnswers(run.target, run.names, group),
    ]);
    const both = Math.min(mock.answers.length, sandbox.answers.length);
    for (const [i, c] of group.cases.slice(0, both).entries()) {
      const [a = '', b = ''] = [mock.answers[i], sandbox.answers[i]];
      if (a === b) continue;
      entry.differing += 1;
      differences.push({
        endpoint: c.endpoint,
        rule: c.rule,
        mock: a,
        sandbox: b,
        text: `${c.rule}: mock ${a}, sandbox ${b}`,
      });
    }
    entry.compared += both;
    if (createsUser(first.operationId)) created += sandbox.answers.filter((a) => a === '201').length;
    const lost = mock.unavailable ?? sandbox.unavailable;
    if (lost) {
      entry.notSent += group.cases.length - both;
      entry.why = lost.message;
      unavailable.push(lost.message);
    }
    run.progress(
      `  probe ${first.endpoint}${group.tier === 'read-only' ? '' : ` (${group.tier})`}: ${both} cases, ${
        entry.differing ? `${entry.differing} differ` : 'same'
      }${lost ? `; ${lost.message}` : ''}`,
    );
  }
  return {
    seed: run.settings.seed,
    cap: run.settings.cap,
    generated: cases.length,
    compared: [...endpoints.values()].reduce((n, e) => n + e.compared, 0),
    endpoints: [...endpoints.values()],
    differences,
    unavailable,
    created,
    ms: Date.now() - started,
  };
}
