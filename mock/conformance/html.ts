/**
 * The report as one self-contained HTML page (no script, no external resource): the summary, then each
 * scenario, and for each difference the two answers side by side. Everything shown is escaped.
 */
import { escapeHtml } from '../http/html.js';
import type { ConformanceReport, Observation, ScenarioResult } from './types.js';

function shown(observation: Observation | undefined): string {
  if (!observation) return '(nothing)';
  if (observation.kind === 'exchange') {
    const headers = Object.entries(observation.headers)
      .map(([name, value]) => `${name}: ${value}`)
      .join('\n');
    const body = observation.body === undefined ? '' : JSON.stringify(observation.body, null, 2);
    return `${observation.label} → ${observation.status}\n${headers}\n\n${body}`;
  }
  if (observation.kind === 'step')
    return `${observation.label}\n\n${JSON.stringify(observation.value, null, 2)}`;
  return `stopped: ${observation.error}`;
}

function scenario(r: ScenarioResult): string {
  const head = `<h2 class="${r.outcome}"><span>${r.outcome}</span> ${escapeHtml(r.id)}</h2>
<p>${escapeHtml(r.title)} (spec ${escapeHtml(r.spec)}, tier ${escapeHtml(r.tier)})${r.reason ? `: ${escapeHtml(r.reason)}` : ''}</p>`;
  // One side-by-side pair per observation that differs, listing every difference found in it.
  const byIndex = new Map<number, string[]>();
  for (const d of r.differences)
    byIndex.set(d.index, [...(byIndex.get(d.index) ?? []), `${d.severity}: ${d.text}`]);
  const pairs = [...byIndex].map(
    ([index, texts]) => `<section>
<ul>${texts.map((t) => `<li>${escapeHtml(t)}</li>`).join('')}</ul>
<div class="pair"><div><h3>mock</h3><pre>${escapeHtml(shown(r.mock[index]))}</pre></div><div><h3>sandbox</h3><pre>${escapeHtml(shown(r.sandbox[index]))}</pre></div></div>
</section>`,
  );
  return `<article>${head}${pairs.join('\n')}</article>`;
}

/** The mock's own additions the target left out: listed, never a difference. */
function mockOwnSection(marks: readonly string[]): string {
  if (marks.length === 0) return '';
  return `<section><h2>The mock's own, not promised by the spec</h2>
<p>The target leaves these out, as the spec allows: not a difference.</p>
<ul>${marks.map((m) => `<li>${escapeHtml(m)}</li>`).join('')}</ul>
</section>`;
}

/** The probes: how many cases were compared, and each case the two sides answered differently, by endpoint. */
function probesSection(probes: ConformanceReport['probes']): string {
  if (!probes) return '';
  const endpoints = [...new Set(probes.differences.map((d) => d.endpoint))];
  const outcome = probes.differences.some((d) => d.severity === 'breaking')
    ? 'differs'
    : endpoints.length
      ? 'flaky'
      : 'same';
  return `<section><h2 class="${outcome}"><span>${outcome}</span> probes</h2>
<p>${probes.compared} of ${probes.generated} cases compared (seed ${escapeHtml(String(probes.seed))}, at most ${probes.cap} per endpoint), each a valid request with one field at a boundary.</p>
${endpoints
  .map(
    (endpoint) => `<h3>${escapeHtml(endpoint)}</h3>
<ul>${probes.differences
      .filter((d) => d.endpoint === endpoint)
      .map((d) => `<li>${escapeHtml(`${d.severity}: ${d.text}`)}</li>`)
      .join('')}</ul>`,
  )
  .join('\n')}
</section>`;
}

/**
 * The HTML page of a report.
 * @example
 * ```ts
 * import { conformanceHtml, runConformance } from 'inr-payouts/mock';
 * const page = conformanceHtml(await runConformance({ tier: 'read-only' }));
 * ```
 */
export function conformanceHtml(report: ConformanceReport): string {
  const { same, differs, review, flaky, skipped, unavailable } = report.counts;
  const counts = `${same} same, ${differs} differ (breaking), ${review} for review, ${flaky} flaky, ${skipped} skipped, ${unavailable + report.counts['not-compared']} not compared`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Conformance of ${escapeHtml(report.target)}</title>
<style>
body { font: 15px/1.5 system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; padding: 0 1rem; color: #1b1b1b; }
h2 { font-size: 1.05rem; margin: 1.5rem 0 0.25rem; }
h2 span { display: inline-block; min-width: 5.5rem; font-family: ui-monospace, monospace; }
.same span { color: #1a7f37; } .differs span { color: #cf222e; } .review span, .flaky span { color: #9a6700; } .skipped span { color: #6e7781; }
.pair { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
.pair > div { min-width: 0; }
pre { background: #f6f8fa; padding: 0.75rem; overflow-x: auto; font-size: 13px; white-space: pre-wrap; word-break: break-word; }
</style>
</head>
<body>
<h1>Conformance of ${escapeHtml(report.target)} against the mock</h1>
<p>Run ${escapeHtml(report.prefix)} at ${escapeHtml(report.startedAt)}, tiers ${escapeHtml(report.tiers.join(', '))}, paced to ${report.rateLimit} requests per minute, ${report.requests} requests sent to the target: <strong>${counts}</strong>, exit status ${report.exitCode}. A breaking difference breaks a partner's code; one for review (a new enum value, a field the contract does not list) does not; a flaky one did not come back when the scenario or probe case was sent again.</p>
${report.results.map(scenario).join('\n')}
${probesSection(report.probes)}
${mockOwnSection(report.mockOwn ?? [])}
</body>
</html>
`;
}
