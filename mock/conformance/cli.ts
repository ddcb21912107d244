/**
 * `inr-payouts-mock conformance --base-url <url>`: runs {@link runSuite} against a target, prints progress
 * to stderr and the report to stdout, writes the JSON and HTML reports when asked, and answers the exit status:
 * 1 a difference that breaks a partner's code, 2 the run could not run or could not compare everything (never
 * read as drift), 0 otherwise (lines for review or flaky only).
 */
import { accessSync, constants, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { describeError } from '../../src/shared/describe-error.js';
import { conformanceHtml } from './html.js';
import { formatConformanceReport } from './report.js';
import { runSuite } from './run.js';
import { type ConformanceOptions, TIERS, type Tier } from './types.js';

/** Why the command could not run: it exits 2, as a run that could not compare does. */
export class ConformanceUsageError extends Error {
  override readonly name = 'ConformanceUsageError';
  readonly exitCode = 2;
}

/** The subcommand's help. */
const CONFORMANCE_USAGE = `Usage: inr-payouts-mock conformance --base-url <url> [options]

Runs the conformance suite (scenarios drawn from the spec) on the mock in-process and on the target, and
reports where the target's answers differ in shape: status codes, error identifiers and shapes, fields, their
types and formats, enum values outside the published contract, headers and their units, state moves, webhook
payloads, and the timings the spec states. What only the mock adds (x-mock-only) and the target leaves out is
listed under its own heading, never a difference.

Each difference says what it means for your code: "breaking" (a field missing or renamed, a type or format
changed, another status, error identifier or error shape, a header or signature changed), "review" (a new enum
value, a field or event type the contract does not list: the client lets it pass), or "flaky" (it did not come
back when the scenario or probe case was sent again).

Exit status: 1 a breaking difference (or one for review, with --fail-on-review); 2 the run could not run or could
not compare everything (a target that stayed unavailable after the client's retries, or a receiver the target
could not reach, is reported as such, never as a difference); 0 otherwise.

Options:
  --base-url <url>    The target: a running inr-payouts-mock, or your sandbox's base address
  --api-key <key>     The target's sandbox key (pk_sandbox_...; a pk_live_ key is refused). Default: read from
                      a mock's test helpers
  --tier <t>          What the run may cost the target (repeat, or separate with commas; default all):
                        read-only     changes nothing: reads, and requests without a valid key
                        creates       creates test users and transactions named with the run's prefix, and
                                      sends writes the service should refuse (one it accepts changes it);
                                      their events go to the account's webhook URL
                        mock-helpers  uses the mock's /__mock helpers: moves the target's clock, points its
                                      webhook URL at the run's receiver and back (skipped where there are none)
                      The run says what it will do to the target when it starts, and what it did when it ends.
  --only <id>         Only this scenario (repeat; an ID ending in "." takes every scenario under it); the
                      probes are then sent only when --probe-seed or --probe-cap is given
  --fail-on-review    A difference for review fails the run too (exit status 1)
  --probe-seed <s>    After the scenarios, the run probes every field rule of the published contract at its
                      boundaries (each case a valid request with one field changed, sent to both sides in
                      its tier); the seed chooses the cases where an endpoint has more than the cap (default 1)
  --probe-cap <n>     The most probe cases per endpoint (default 24; 0 sends none)
  --json <file>       Also write the report as JSON (checked writable before the run)
  --html <file>       Also write the report as a self-contained HTML page (both answers side by side)
  --timeout <s>       Seconds one request may take before it is retried as a time-out (default 30)
  --retries <n>       Retries of a time-out, network error, 408, 429 or 5xx (default 2, as the client)
  --guided            Carry one standard transaction through on a target without the mock's helpers: the
                      run creates it, prints the deposit address, amount and deadline, waits for you to
                      send the testnet deposit, then follows confirmations, payout, attribution and
                      every delivery (progress on stderr). Needs --receiver-url and the webhook
                      secret, and --user-id where the target has no mock helpers
  --user-id <id>      A KYC-verified user with a verified bank account on the target (guided); needed
                      on a sandbox, where the run cannot onboard one. On a target with the mock's
                      helpers, the run seeds a verified user when it is left out
  --receiver-url <u>  The URL the target delivers webhooks to, reaching the run's receiver on
                      127.0.0.1:--receiver-port: a target in a container reaches the host at
                      http://host.containers.internal:8787/webhooks (podman; host.docker.internal with
                      docker); guided, the public URL of your tunnel, set as the account's webhook URL in
                      the dashboard (the API cannot set it). Default: a receiver per webhook scenario on
                      127.0.0.1, which only a target on this host reaches
  --receiver-port <n> The receiver's port when --receiver-url is given (default 8787)
  --receiver-host <a> The address it listens on (default 127.0.0.1; 0.0.0.0 where the container reaches
                      the host on its network address, as docker's host.docker.internal does)
  --webhook-secret <s> The account's webhook secret, to verify each delivery (never printed); or set
                      INR_PAYOUTS_WEBHOOK_SECRET
  --wait <s>          Seconds each guided wait may last (the deposit, the payout, the deliveries; default 3600)
  --help              Show this help

Requests are paced to the account's limits.rateLimit. The guide: docs/checking-the-mock-against-your-sandbox.md
in this package (node_modules/inr-payouts/docs/).`;

/** Refuses, before the run, a report path that could not be written (the report would be lost after the run). */
function checkWritable(option: string, file: string | undefined): void {
  if (file === undefined) return;
  const path = resolve(file);
  const existing = statSync(path, { throwIfNoEntry: false });
  try {
    if (existing?.isDirectory()) throw new Error('it is a directory');
    accessSync(existing ? path : dirname(path), constants.W_OK);
  } catch (error) {
    const why = error instanceof Error && 'code' in error ? String(error.code) : describeError(error);
    throw new ConformanceUsageError(
      `${option} ${file} cannot be written (${why}): give a file in a directory you can write to`,
    );
  }
}

function seconds(option: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${option} must be a positive number; got ${value}`);
  return n;
}

function tiersOf(values: string[] | undefined): Tier[] | undefined {
  if (!values) return undefined;
  const asked = values.flatMap((v) => v.split(',')).map((v) => v.trim());
  const unknown = asked.filter((t) => !TIERS.some((tier) => tier === t));
  if (unknown.length) throw new Error(`--tier must be ${TIERS.join(', ')}; got ${unknown.join(', ')}`);
  return TIERS.filter((t) => asked.includes(t));
}

/**
 * Runs the subcommand with its arguments (after `conformance`); resolves its exit status (0 the same, 1 a
 * difference, 2 not everything could be compared), rejects {@link ConformanceUsageError} or another error
 * (both exit 2) when it cannot run.
 */
export async function runConformanceCli(argv: string[]): Promise<0 | 1 | 2> {
  let values: ReturnType<typeof parse>['values'];
  let options: ConformanceOptions;
  try {
    ({ values } = parse(argv));
    options = optionsOf(values);
  } catch (error) {
    throw new ConformanceUsageError(`${describeError(error)}\n\n${CONFORMANCE_USAGE}`);
  }
  if (values.help) {
    console.log(CONFORMANCE_USAGE);
    return 0;
  }
  if (!values['base-url'])
    throw new ConformanceUsageError(`Give the target with --base-url.\n\n${CONFORMANCE_USAGE}`);
  checkWritable('--json', values.json);
  checkWritable('--html', values.html);
  const report = await runSuite(options).catch((error: unknown) => {
    // A run that could not start (a live key, no target, a helper probe that failed) is no difference.
    throw new ConformanceUsageError(describeError(error), { cause: error });
  });
  if (values.json) writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
  if (values.html) writeFileSync(values.html, conformanceHtml(report));
  console.log(formatConformanceReport(report));
  const { differs, review, unavailable, 'not-compared': notCompared } = report.counts;
  const lost = report.probes?.unavailable.length ?? 0;
  const breakingCases = report.probes?.differences.filter((d) => d.severity === 'breaking').length ?? 0;
  const said: [boolean, string][] = [
    [differs > 0, `${differs} scenario(s) differ from the mock in a way that breaks code`],
    [breakingCases > 0, `${breakingCases} probe case(s) differ from the mock in a way that breaks code`],
    [
      report.exitCode === 1 && differs === 0 && breakingCases === 0,
      `${review} scenario(s) differ for review (--fail-on-review)`,
    ],
    [
      lost > 0,
      `the target was unavailable for ${lost} probe request(s): the cases after them were not compared`,
    ],
    [unavailable > 0, `the target was unavailable for ${unavailable} scenario(s): those were not compared`],
    [
      notCompared > 0,
      `${notCompared} scenario(s) not compared: the target could not reach the run's receiver (see --receiver-url)`,
    ],
  ];
  for (const [when, line] of said) if (when) console.error(`conformance: ${line}`);
  return report.exitCode;
}

/** The run's options from the command line's, each checked before anything is sent. */
function optionsOf(values: ReturnType<typeof parse>['values']): ConformanceOptions {
  const tier = tiersOf(values.tier);
  const timeout = seconds('--timeout', values.timeout);
  const retries = values.retries === undefined ? undefined : Number(values.retries);
  if (retries !== undefined && !(Number.isInteger(retries) && retries >= 0))
    throw new Error(`--retries must be a whole number of 0 or more; got ${values.retries}`);
  const wait = seconds('--wait', values.wait);
  return {
    baseUrl: values['base-url'],
    apiKey: values['api-key'],
    tier,
    only: values.only,
    failOnReview: values['fail-on-review'] ?? false,
    receiverUrl: values['receiver-url'],
    receiverPort: values['receiver-port'] === undefined ? undefined : Number(values['receiver-port']),
    receiverHost: values['receiver-host'],
    probes: probeOptions(values['probe-seed'], values['probe-cap'], values.only),
    ...(timeout ? { timeoutMs: timeout * 1000 } : {}),
    ...(retries !== undefined ? { retries } : {}),
    ...(values.guided
      ? {
          guided: true,
          webhookSecret: values['webhook-secret'] ?? process.env.INR_PAYOUTS_WEBHOOK_SECRET,
          userId: values['user-id'],
          ...(wait ? { guidedTimeoutMs: wait * 1000 } : {}),
        }
      : {}),
    onProgress: (line) => console.error(line),
  };
}

/**
 * `--probe-seed` and `--probe-cap`: the defaults when neither is given (none with `--only`), `false` for a cap
 * of 0.
 */
function probeOptions(
  seed: string | undefined,
  cap: string | undefined,
  only: readonly string[] | undefined,
): ConformanceOptions['probes'] {
  if (seed === undefined && cap === undefined) return only?.length ? false : {};
  const most = cap === undefined ? undefined : Number(cap);
  if (most !== undefined && !(Number.isInteger(most) && most >= 0))
    throw new Error(`--probe-cap must be a whole number of 0 or more; got ${cap}`);
  if (most === 0) return false;
  return { ...(seed === undefined ? {} : { seed }), ...(most === undefined ? {} : { cap: most }) };
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
      'probe-seed': { type: 'string' },
      'probe-cap': { type: 'string' },
      json: { type: 'string' },
      html: { type: 'string' },
      timeout: { type: 'string' },
      retries: { type: 'string' },
      guided: { type: 'boolean' },
      'fail-on-review': { type: 'boolean' },
      'user-id': { type: 'string' },
      'receiver-url': { type: 'string' },
      'receiver-port': { type: 'string' },
      'receiver-host': { type: 'string' },
      'webhook-secret': { type: 'string' },
      wait: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
}
