/**
 * The report as people read it: one line per scenario (its outcome), each distinct difference once with its
 * severity (`breaking`, `review`, `flaky`) and how often and where it was seen, what a stopped scenario did not
 * compare, and the totals with the exit status.
 */
import { coverageLines } from './coverage.js';
import { probeLines } from './probes/report.js';
import type { ConformanceReport, DifferenceSummary, ScenarioResult } from './types.js';

/** How many named things, shortened past `most`. */
function some(names: readonly string[], most = 4): string {
  const shown = names.slice(0, most).join(', ');
  return names.length > most ? `${shown} and ${names.length - most} more` : shown;
}

/**
 * Each distinct difference of the run once: the same field, header or status met on many requests (or in many
 * scenarios) is one entry with its count, in the order first met.
 */
export function summarize(results: readonly ScenarioResult[]): DifferenceSummary[] {
  const byKey = new Map<string, DifferenceSummary & { rest: string }>();
  for (const r of results) {
    for (const d of r.differences) {
      const rest = `${d.what}: mock ${d.mock}, sandbox ${d.sandbox}`;
      const entry: DifferenceSummary & { rest: string } = byKey.get(rest) ?? {
        severity: d.severity,
        text: '',
        count: 0,
        steps: [],
        scenarios: [],
        rest,
      };
      entry.count += d.count;
      if (!entry.steps.includes(d.step)) entry.steps.push(d.step);
      if (!entry.scenarios.includes(r.id)) entry.scenarios.push(r.id);
      byKey.set(rest, entry);
    }
  }
  return [...byKey.values()].map(({ severity, count, steps, scenarios, rest }) => {
    const where = steps.length === 1 ? `${steps[0]}: ${rest}` : `${rest} (on ${some(steps)})`;
    const times = count > 1 ? `, seen ${count} times in ${some(scenarios)}` : '';
    const text = steps.length === 1 && count === 1 ? where : `${where}${times}`;
    return { severity, text, count, steps, scenarios };
  });
}

const PAD = ' '.repeat(10);

/**
 * The text report: a line per scenario, an indented line per difference (each distinct one once, under the
 * first scenario that met it), what a stopped scenario did not compare, and a summary line.
 * @example
 * ```ts
 * import { formatConformanceReport, runConformance } from 'inr-payouts/mock';
 * console.log(formatConformanceReport(await runConformance({ tier: 'read-only' })));
 * ```
 */
export function formatConformanceReport(report: ConformanceReport): string {
  const width = Math.max(...report.results.map((r) => r.id.length), 10);
  const lines = [`Conformance of ${report.target} against the mock (run ${report.prefix})`];
  if (report.coverage) lines.push(...coverageLines(report.coverage));
  for (const effect of report.effects ?? []) lines.push(`  ${effect}`);
  const printed = new Set<string>();
  for (const r of report.results) {
    const head = `${r.outcome.padEnd(7)} ${r.id.padEnd(width)}  ${r.title} (spec ${r.spec})`;
    if (r.reason !== undefined) lines.push(`${head}: ${r.reason}`);
    else lines.push(r.note ? `${head}: ${r.note}` : head);
    for (const s of report.summary ?? []) {
      if (printed.has(s.text) || !s.scenarios.includes(r.id)) continue;
      printed.add(s.text);
      lines.push(`${PAD}${s.severity}: ${s.text}`);
    }
    if (r.notCompared?.length) lines.push(`${PAD}not compared after that: ${some(r.notCompared, 8)}`);
  }
  lines.push(...probeLines(report.probes));
  if (report.mockOwn?.length) {
    lines.push("The mock's own, not promised by the spec (the target leaves it out; not a difference):");
    for (const mark of report.mockOwn) lines.push(`${PAD}${mark}`);
  }
  const { same, differs, skipped, review, flaky, unavailable } = report.counts;
  const status =
    report.exitCode === 1
      ? ' (exit status 1)'
      : report.exitCode === 2
        ? ' (exit status 2: not everything could be compared)'
        : '';
  const also = [
    [review, 'for review'],
    [flaky, 'flaky'],
    [unavailable, 'target unavailable'],
    [report.counts['not-compared'], 'not compared'],
  ].flatMap(([n, what]) => (n ? [`, ${n} ${what}`] : []));
  const cases = (severity: string) =>
    report.probes?.differences.filter((d) => d.severity === severity).length ?? 0;
  const probed = [
    [cases('breaking'), 'breaking'],
    [cases('flaky'), 'flaky'],
  ].flatMap(([n, what]) => (n ? [`${n} ${what}`] : []));
  const probes = probed.length ? `; probe cases: ${probed.join(', ')}` : '';
  lines.push(
    `${report.results.length} scenarios: ${same} same, ${differs} differ, ${skipped} skipped${also.join('')}${probes}${status}`,
  );
  return lines.join('\n');
}
