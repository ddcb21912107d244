/**
 * `inr-payouts-mock conformance --base-url <url>`: runs {@link runConformance} against a target, prints progress
 * to stderr and the report to stdout, writes the JSON and HTML reports when asked, and rejects (exit status 1)
 * when the target differs from the mock.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { conformanceHtml } from './html.js';
import { formatConformanceReport } from './report.js';
import { runConformance } from './run.js';
import { TIERS, type Tier } from './types.js';

/** The subcommand's help. */
export const CONFORMANCE_USAGE = `Usage: inr-payouts-mock conformance --base-url <url> [options]

Runs the conformance suite (scenarios drawn from the spec) on the mock in-process and on the target, and
reports where the target's answers differ in shape: status codes, error identifiers and shapes, fields and
their types, headers, state moves, and the timings the spec states. Exit status 1 on any difference.

Options:
  --base-url <url>    The target: a running inr-payouts-mock, or your sandbox's base address
  --api-key <key>     The target's sandbox key (pk_sandbox_...; a pk_live_ key is refused). Default: read from
                      a mock's test helpers
  --tier <t>          read-only, creates or mock-helpers (repeat, or separate with commas; default all).
                      read-only stores nothing; creates makes test users and transactions, named with the
                      run's prefix; mock-helpers needs the mock's /__mock helpers (skipped elsewhere)
  --only <id>         Only this scenario (repeat; an ID ending in "." takes every scenario under it)
  --json <file>       Also write the report as JSON
  --html <file>       Also write the report as a self-contained HTML page (both answers side by side)
  --help              Show this help

Requests are paced to the account's limits.rateLimit. The guide: docs/checking-the-mock-against-your-sandbox.md
in this package (node_modules/inr-payouts/docs/).`;

function tiersOf(values: string[] | undefined): Tier[] | undefined {
  if (!values) return undefined;
  const asked = values.flatMap((v) => v.split(',')).map((v) => v.trim());
  const unknown = asked.filter((t) => !TIERS.some((tier) => tier === t));
  if (unknown.length) throw new Error(`--tier must be ${TIERS.join(', ')}; got ${unknown.join(', ')}`);
  return TIERS.filter((t) => asked.includes(t));
}

/** Runs the subcommand with its arguments (after `conformance`). */
export async function runConformanceCli(argv: string[]): Promise<void> {
  let parsed: ReturnType<typeof parse>;
  let tier: Tier[] | undefined;
  try {
    parsed = parse(argv);
    tier = tiersOf(parsed.values.tier);
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n\n${CONFORMANCE_USAGE}`);
  }
  const { values } = parsed;
  if (values.help) {
    console.log(CONFORMANCE_USAGE);
    return;
  }
  if (!values['base-url']) throw new Error(`Give the target with --base-url.\n\n${CONFORMANCE_USAGE}`);
  const report = await runConformance({
    baseUrl: values['base-url'],
    apiKey: values['api-key'],
    tier,
    only: values.only,
    onProgress: (line) => console.error(line),
  });
  if (values.json) writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
  if (values.html) writeFileSync(values.html, conformanceHtml(report));
  console.log(formatConformanceReport(report));
  if (!report.ok) {
    throw new Error(`conformance: ${report.counts.differs} scenario(s) differ from the mock`);
  }
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      'base-url': { type: 'string' },
      'api-key': { type: 'string' },
      tier: { type: 'string', multiple: true },
      only: { type: 'string', multiple: true },
      json: { type: 'string' },
      html: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
}
