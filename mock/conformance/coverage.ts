/**
 * What a run exercised on its target: each `/v2` endpoint of the endpoint table, met with a success and with a
 * refusal, and each of the ten event types, received and checked. What it did not reach says why: a tier not
 * chosen, or a target without the mock's helpers (and, where a guided run would reach it, how).
 */
import { ENDPOINTS, type Endpoint, endpointLabel } from '../../src/endpoints/index.js';
import { WEBHOOK_EVENT_TYPES } from '../../src/webhooks/index.js';
import { objectOf } from '../state/records.js';
import { isEventType } from './contract.js';
import { probeCounts } from './probes/report.js';
import type { ProbeReport } from './probes/types.js';
import { GUIDED_REACH, GUIDED_SCENARIO_ID } from './scenarios/guided-reach.js';
import type { ScenarioResult } from './types.js';

/** One row of the coverage table. */
export interface CoverageRow {
  /** `POST /v2/users` or an event type. */
  name: string;
  /** `exercised`, `success only`, `refusal only`, `skipped` or `not reachable`. */
  status: 'exercised' | 'success only' | 'refusal only' | 'skipped' | 'not reachable';
  /** Why it was not exercised (fully). */
  why?: string;
  /** An endpoint's: the scenarios that sent it a request, and the generated probe cases sent and compared. */
  sent?: { scenarios: number; cases: number };
}

/** The coverage of a run: endpoints, then event types. */
export interface Coverage {
  endpoints: CoverageRow[];
  events: CoverageRow[];
  /** The run sent the probes: the table shows each endpoint's scenarios and cases. */
  probed?: true;
}

const NO_HELPERS = "needs the mock's helpers, which this target has not";

/** Why something was not reached: the skips of the run, the most telling first. */
function whyNot(results: readonly ScenarioResult[]): Pick<CoverageRow, 'status' | 'why'> {
  const skips = results.filter((r) => ['skipped', 'unavailable', 'not-compared'].includes(r.outcome));
  if (skips.some((r) => r.skippedFor === 'helpers')) return { status: 'not reachable', why: NO_HELPERS };
  if (skips.some((r) => r.outcome === 'unavailable')) return { status: 'skipped', why: 'target unavailable' };
  if (skips.some((r) => r.outcome === 'not-compared'))
    return { status: 'skipped', why: "the target could not reach the run's receiver" };
  const tiers = [...new Set(skips.flatMap((r) => (r.skippedFor === 'tier' ? [r.tier] : [])))];
  if (tiers.length) return { status: 'skipped', why: `tier ${tiers.join(', ')} not chosen` };
  return { status: 'skipped', why: 'no scenario of this run reaches it' };
}

/**
 * The way to reach `name` on a target without helpers, when a guided run (not this one) would reach it: an
 * endpoint needs `--guided`, an event type also the tunnel its deliveries come through.
 */
function withGuidedHint(
  missing: Pick<CoverageRow, 'status' | 'why'>,
  name: string,
  guidedRan: boolean,
): Pick<CoverageRow, 'status' | 'why'> {
  if (guidedRan || missing.why !== NO_HELPERS) return missing;
  if (GUIDED_REACH.endpoints.includes(name))
    return { ...missing, why: `${NO_HELPERS}: run with --guided to reach it` };
  if (GUIDED_REACH.events.includes(name))
    return { ...missing, why: `${NO_HELPERS}: run with --guided and --receiver-url to reach it` };
  return missing;
}

/** The coverage table of a run's results (and its probes), from what its target answered and delivered. */
export function coverageOf(results: readonly ScenarioResult[], probes?: ProbeReport): Coverage {
  const seen = new Map<string, { success: boolean; refusal: boolean }>();
  const scenarios = new Map<string, Set<string>>();
  const events = new Set<string>();
  for (const r of results) {
    for (const o of r.sandbox) {
      if (o.kind === 'exchange') {
        scenarios.set(o.label, (scenarios.get(o.label) ?? new Set()).add(r.id));
        const entry = seen.get(o.label) ?? { success: false, refusal: false };
        const refused = o.status >= 400 || objectOf(o.body)?.success === false;
        if (refused) entry.refusal = true;
        else if (o.status < 300) entry.success = true;
        seen.set(o.label, entry);
      } else if (o.kind === 'step' && o.compare === 'delivery') {
        // Its own type, not the step's: a type the contract does not list, standing in for one, is not it.
        const type = objectOf(o.value)?.event;
        if (isEventType(type)) events.add(type);
      }
    }
  }
  const base = whyNot(results);
  const guidedRan = results.some((r) => r.id === GUIDED_SCENARIO_ID && r.outcome !== 'skipped');
  const cases = probeCounts(probes);
  const endpoints = Object.values(ENDPOINTS as Record<string, Endpoint>).map((e): CoverageRow => {
    const name = endpointLabel(e);
    const found = seen.get(name);
    const missing = withGuidedHint(base, name, guidedRan);
    const sent = { scenarios: scenarios.get(name)?.size ?? 0, cases: cases.get(name) ?? 0 };
    if (found?.success && found.refusal) return { name, status: 'exercised', sent };
    if (found?.success) return { name, status: 'success only', why: `no refusal met; ${missing.why}`, sent };
    if (found?.refusal) return { name, status: 'refusal only', why: `no success met; ${missing.why}`, sent };
    return { name, ...missing, sent };
  });
  const received = WEBHOOK_EVENT_TYPES.map(
    (type): CoverageRow =>
      events.has(type)
        ? { name: type, status: 'exercised' }
        : { name: type, ...withGuidedHint(base, type, guidedRan) },
  );
  return { endpoints, events: received, ...(probes ? { probed: true as const } : {}) };
}

/** The table as text: one line per endpoint and event type. */
export function coverageLines(coverage: Coverage): string[] {
  const rows = [...coverage.endpoints, ...coverage.events];
  if (rows.length === 0) return [];
  const width = Math.max(...rows.map((r) => r.name.length));
  // The counts, in a run that sent the probes: a run of scenarios alone keeps to the status.
  const counts = (scenarios: number, cases: number) =>
    `${String(scenarios).padStart(2)} scenarios ${String(cases).padStart(3)} cases  `;
  const sent = (r: CoverageRow) =>
    !coverage.probed ? '' : r.sent ? counts(r.sent.scenarios, r.sent.cases) : ' '.repeat(counts(0, 0).length);
  const line = (r: CoverageRow) =>
    `  ${r.name.padEnd(width)}  ${sent(r)}${r.status}${r.why ? ` (${r.why})` : ''}`;
  const count = (list: CoverageRow[]) => list.filter((r) => r.status === 'exercised').length;
  return [
    `Coverage: ${count(coverage.endpoints)} of ${coverage.endpoints.length} endpoints met with a success and a refusal, ${count(coverage.events)} of ${coverage.events.length} event types received and checked`,
    ...coverage.endpoints.map(line),
    ...coverage.events.map(line),
  ];
}
