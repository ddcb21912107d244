/** The probes in the report: their count and seed, and each disagreement under its endpoint, named with its rule. */
import type { ProbeReport } from './types.js';

/** The cases compared per endpoint (`POST /v2/users` to 21), for the coverage table. */
export function probeCounts(probes: ProbeReport | undefined): Map<string, number> {
  return new Map((probes?.endpoints ?? []).map((e) => [e.endpoint, e.compared]));
}

const PAD = ' '.repeat(10);

/**
 * The probes' section of the text report: a head line, then each endpoint that differs, with each case's
 * severity and rule.
 */
export function probeLines(probes: ProbeReport | undefined): string[] {
  if (!probes) return [];
  const differing = probes.endpoints.filter((e) => e.differing > 0);
  const lines = [
    `Probes: ${probes.compared} of ${probes.generated} cases compared (seed ${probes.seed}, at most ${probes.cap} per endpoint): ${
      probes.differences.length === 0
        ? 'the target answers every one as the mock does'
        : `${probes.differences.length} differ on ${differing.length} endpoint(s)`
    }`,
  ];
  const notSent = probes.endpoints.filter((e) => e.notSent > 0);
  const whys = [...new Set(notSent.map((e) => e.why ?? ''))];
  if (notSent.length)
    lines.push(`  ${notSent.reduce((n, e) => n + e.notSent, 0)} not sent: ${whys.join('; ')}`);
  // As a scenario's: the endpoint under its most severe line's outcome, each case with its severity.
  for (const e of differing) {
    const found = probes.differences.filter((d) => d.endpoint === e.endpoint);
    const outcome = found.some((d) => d.severity === 'breaking') ? 'differs' : 'flaky';
    lines.push(`${outcome.padEnd(7)} ${e.endpoint}`);
    for (const d of found) lines.push(`${PAD}${d.severity}: ${d.text}`);
  }
  return lines;
}

/** The users the probes created on the target, for what the run says it did. */
export function probeEffects(probes: ProbeReport | undefined): string[] {
  const created = probes?.created ?? 0;
  return created > 0
    ? [`The probes created ${created} user(s) on the target (their deviceId names the run).`]
    : [];
}
