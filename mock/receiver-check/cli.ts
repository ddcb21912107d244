/**
 * `inr-payouts-mock check-receiver <url> --secret <s>`: runs {@link checkReceiver} and prints the report;
 * rejects (exit status 1) when a check failed.
 */
import { parseArgs } from 'node:util';
import { describeError } from '../../src/shared/describe-error.js';
import { asDuration, type Duration } from '../engine/duration.js';
import { checkReceiver, formatReceiverReport } from './index.js';

/** The subcommand's help. */
const CHECK_RECEIVER_USAGE = `Usage: inr-payouts-mock check-receiver <url> --secret <secret> [options]

Delivers a battery of signed, tampered, stale, repeated and reordered webhook events to your endpoint and
grades each answer against the spec (6.3, 6.4). Exit status 1 when a check fails.

Options:
  --secret <s>        The webhook signing secret (repeat it to check every secret of a rotation)
  --next-secret <s>   The next secret of a rotation (same as a second --secret)
  --timeout <d>       Delivery time-out (default 30s, the service's; ms or 500ms, 2s...)
  --fast <d>          Answers slower than this are a warning (default 2s)
  --retry-delay <d>   Pause before a retry (default 1s, the spec's first retry delay)
  --json              Print the report as JSON
  --help              Show this help

A repeated event must be answered 2xx with {"duplicate": true}, and an event type the receiver does not act on
may be answered 2xx with {"ignored": true}, as createWebhookHandler (inr-payouts/webhooks/handler) answers:
see docs/checking-your-receiver.md.`;

/** The subcommand's options, as `parseArgs` reads them. */
const OPTIONS = {
  secret: { type: 'string', multiple: true },
  'next-secret': { type: 'string', multiple: true },
  timeout: { type: 'string' },
  fast: { type: 'string' },
  'retry-delay': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

/** A refusal of the arguments: what is wrong, then the help. */
const misused = (message: string) => new Error(`${message}\n\n${CHECK_RECEIVER_USAGE}`);

function parse(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
  } catch (error) {
    throw misused(describeError(error));
  }
}

/** Runs the subcommand with its arguments (after `check-receiver`). */
export async function runCheckReceiver(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv);
  if (values.help) {
    console.log(CHECK_RECEIVER_USAGE);
    return;
  }
  const [url, ...extra] = positionals;
  const secrets = [...(values.secret ?? []), ...(values['next-secret'] ?? [])];
  if (!url || extra.length > 0) throw misused('Give exactly one receiver URL.');
  if (secrets.length === 0) throw misused('Give the webhook secret with --secret.');
  const report = await checkReceiver({
    url,
    secret: secrets,
    timeout: duration(values.timeout),
    fast: duration(values.fast),
    retryDelay: duration(values['retry-delay']),
  });
  console.log(values.json ? JSON.stringify(report, null, 2) : formatReceiverReport(report));
  if (!report.ok) {
    const failed = report.checks.filter((c) => c.grade === 'fail').map((c) => c.name);
    throw new Error(`check-receiver: ${failed.length} check(s) failed: ${failed.join(', ')}`);
  }
}

/** A bare number on the command line is milliseconds, as in the API. */
function duration(text: string | undefined): Duration | undefined {
  if (text === undefined) return undefined;
  return asDuration(/^\d+$/.test(text) ? Number(text) : text);
}
