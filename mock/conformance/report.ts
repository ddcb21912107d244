/**
 * The report as people read it: one line per scenario (`same`, `differs`, `skipped`) with each difference named
 * or the reason given, then the totals.
 */
import type { ConformanceReport } from './types.js';

/**
 * The text report: a line per scenario, an indented line per difference, and a summary line.
 * @example
 * ```ts
 * import { formatConformanceReport, runConformance } from 'inr-payouts/mock';
 * console.log(formatConformanceReport(await runConformance({ tier: 'read-only' })));
 * ```
 */
export function formatConformanceReport(report: ConformanceReport): string {
  const width = Math.max(...report.results.map((r) => r.id.length), 10);
  const lines = [`Conformance of ${report.target} against the mock (run ${report.prefix})`];
  for (const r of report.results) {
    const head = `${r.outcome.padEnd(7)} ${r.id.padEnd(width)}  ${r.title} (spec ${r.spec})`;
    if (r.outcome === 'skipped') lines.push(`${head}: ${r.reason ?? ''}`);
    else lines.push(r.note ? `${head}: ${r.note}` : head);
    for (const d of r.differences) lines.push(`          ${d.text}`);
  }
  const { same, differs, skipped } = report.counts;
  lines.push(
    `${report.results.length} scenarios: ${same} same, ${differs} differ, ${skipped} skipped${report.ok ? '' : ' (exit status 1)'}`,
  );
  return lines.join('\n');
}
