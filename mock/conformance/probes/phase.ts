/**
 * The probe phase of a run: every case of `cases.ts` sent to the reference and to the target through each
 * side's client (`send.ts`: paced, its retries and idempotency keys, the scenarios' own), in the tier it belongs
 * to, and the two answers compared by status and error identifier. A disagreement is a `breaking` line named
 * with the rule its case probes; as a scenario that differs, the case is sent again, and one that does not
 * differ alike the second time is `flaky`.
 */
import { CONTRACTS } from '../../../src/endpoints/index.js';
import { TargetUnavailable } from '../errors.js';
import { receiverSessions } from '../receivers.js';
import { answerOf, call } from '../scenarios/support.js';
import { type RunNames, type SideSetup, scenarioTarget } from '../target.js';
import type { Observation, Tier } from '../types.js';
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

/** The developer fee as the `account.developer-fee-update` scenario leaves it: off. */
const FEE_OFF: ProbeRequest = {
  method: 'PUT',
  path: '/v2/account/developer-fee',
  body: { enabled: false, percent: 0 },
};

/** A group of cases: one endpoint's in one tier. */
interface Group {
  id: string;
  tier: Tier;
  cases: ProbeCase[];
}

/** One side's answers to `cases` in order; stops at a request the target stayed unavailable for. */
async function sideAnswers(
  setup: SideSetup,
  names: RunNames,
  group: Group,
): Promise<{ answers: string[]; unavailable?: TargetUnavailable }> {
  const log: Observation[] = [];
  // The probes open no receiver: a fresh, unused set.
  const t = scenarioTarget(setup, names, log, { id: group.id, tier: group.tier }, receiverSessions());
  const context = { mobile: () => t.newMobile(), name: (what: string) => t.name(what) };
  const answers: string[] = [];
  setup.sending.failed = undefined;
  // The client gives a write its `Idempotency-Key`, so a failure is retried safely; it may end on an answer it
  // gave up retrying (a 5xx, a 429): the request stayed unavailable.
  const answer = async ({ method, path, query, body }: ProbeRequest) => {
    const said = await call(t, method, query ? `${path}?${new URLSearchParams(query)}` : path, body);
    if (setup.sending.failed) throw setup.sending.failed;
    return answerOf(said);
  };
  try {
    for (const c of group.cases) answers.push(await answer(c.request(context)));
    if (group.tier === 'mock-helpers' && group.cases.some((c) => validOnlyOnAMock(c.operationId)))
      await answer(FEE_OFF);
  } catch (error) {
    if (error instanceof TargetUnavailable) return { answers, unavailable: error };
    throw error;
  }
  return { answers };
}

/** Both sides' answers to a group, side by side: the cases both answered, and the request that stopped one. */
async function bothAnswers(run: ProbeRun, group: Group) {
  const [mock, sandbox] = await Promise.all([
    sideAnswers(run.reference, run.names, group),
    sideAnswers(run.target, run.names, group),
  ]);
  const both = Math.min(mock.answers.length, sandbox.answers.length);
  return {
    mock: mock.answers,
    sandbox: sandbox.answers,
    both,
    lost: mock.unavailable ?? sandbox.unavailable,
  };
}

/**
 * The differences of a group's first answers, each `breaking`; the cases that differ are sent again, and one
 * whose two answers do not come back as they were is `flaky` (a second send the target was unavailable for
 * leaves them as they were).
 */
async function differencesOf(
  run: ProbeRun,
  group: Group,
  first: Awaited<ReturnType<typeof bothAnswers>>,
): Promise<{ differences: ProbeDifference[]; sentAgain: string[] }> {
  const found = group.cases.slice(0, first.both).flatMap((c, i) => {
    const [mock = '', sandbox = ''] = [first.mock[i], first.sandbox[i]];
    return mock === sandbox ? [] : [{ c, mock, sandbox }];
  });
  if (found.length === 0) return { differences: [], sentAgain: [] };
  const endpoint = found[0]?.c.endpoint ?? '';
  run.progress(
    `  probe ${endpoint}: ${found.length} case(s) sent again, to tell a difference that stays from one that does not`,
  );
  const again = await bothAnswers(run, { ...group, cases: found.map((f) => f.c) });
  const differences = found.map(({ c, mock, sandbox }, i): ProbeDifference => {
    const back = i >= again.both || (again.mock[i] === mock && again.sandbox[i] === sandbox);
    return {
      severity: back ? 'breaking' : 'flaky',
      endpoint: c.endpoint,
      rule: c.rule,
      mock,
      sandbox,
      text: `${c.rule}: mock ${mock}, sandbox ${sandbox}`,
    };
  });
  return { differences, sentAgain: again.sandbox };
}

const createsUser = (operationId: string) =>
  Object.hasOwn(CONTRACTS, operationId) &&
  CONTRACTS[operationId as keyof typeof CONTRACTS].creates?.kind === 'user';

/** Groups cases by endpoint and tier, in their order. */
function groups(cases: readonly ProbeCase[]): Group[] {
  const byKey = new Map<string, Group>();
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
        ? `${validOnlyOnAMock(first.operationId) ?? 'they need a mock'}: sent only to a target with the mock's helpers`
        : undefined;
    if (why) {
      entry.notSent += group.cases.length;
      entry.why = why;
      continue;
    }
    const answered = await bothAnswers(run, group);
    const { both, lost } = answered;
    const found = await differencesOf(run, group, answered);
    entry.differing += found.differences.length;
    differences.push(...found.differences);
    entry.compared += both;
    if (createsUser(first.operationId))
      created += [...answered.sandbox, ...found.sentAgain].filter((a) => a === '201').length;
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
