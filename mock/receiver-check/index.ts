/**
 * `checkReceiver`: grades a partner's webhook endpoint against spec 6.3 and 6.4 by delivering a battery of real,
 * tampered, stale, repeated and reordered events to it over HTTP (`inr-payouts-mock check-receiver` on the
 * command line).
 */
import { type Duration, parseDuration } from '../engine/duration.js';
import type { CheckGrade, CheckResult } from './checks.js';

export type { CheckGrade, CheckResult } from './checks.js';

/** The service's delivery time-out (spec 6.4). */
const SPEC_TIMEOUT = 30_000;
/** The spec's delay before the second attempt (spec 6.4). */
const SPEC_RETRY_DELAY = 1_000;

/**
 * Options of {@link checkReceiver}.
 * @example
 * ```ts
 * import type { CheckReceiverOptions } from 'inr-payouts/mock';
 * const options: CheckReceiverOptions = { url: 'http://127.0.0.1:3000/webhooks', secret: ['whsec_new', 'whsec_old'] };
 * ```
 */
export interface CheckReceiverOptions {
  /** The receiver's URL, as set as the webhook URL in the dashboard. */
  url: string;
  /** The signing secret; several while rotating (the current one first), and every one is checked. */
  secret: string | readonly string[];
  /** How long a delivery waits for its answer. Default `30s`, the service's time-out (spec 6.4). */
  timeout?: Duration;
  /** Answers slower than this are graded `warn` ("answer quickly", spec 6). Default `2s`. */
  fast?: Duration;
  /** The pause before a retry. Default `1s`, the spec's first retry delay. */
  retryDelay?: Duration;
  /** Names the run's event IDs (`evt_check_<runId>_...`). Default: random, so reruns are never duplicates. */
  runId?: string;
  /** The wall clock, ms. Default `Date.now`. */
  now?: () => number;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
}

/** What {@link checkReceiver} found. */
export interface ReceiverReport {
  url: string;
  /** True when no check failed (warnings and skips allowed). */
  ok: boolean;
  checks: CheckResult[];
  counts: Record<CheckGrade, number>;
  timeoutMs: number;
}

/**
 * Delivers the battery to the receiver and grades each answer: a valid event (2xx, fast), the raw bytes kept,
 * a tampered body, a wrong secret, a stale and a future timestamp, a missing and a malformed header (401), both
 * secrets of a rotation, a repeated event (processed once), two events of one transaction out of order, a retry
 * after the time-out and a retry after a refused delivery. Throws when nothing answers at `url`. "Processed once"
 * is read from the answers: a repeat is answered 2xx with `{ "duplicate": true }`, and an event type the receiver
 * does not act on may be answered 2xx with `{ "ignored": true }`, so those checks use a type it acts on, as
 * `createWebhookHandler` answers (docs/checking-your-receiver.md).
 * @example
 * ```ts
 * import { checkReceiver, formatReceiverReport } from 'inr-payouts/mock';
 * import { createWebhookHandler } from 'inr-payouts/webhooks/handler';
 *
 * const secret = 'whsec_example';
 * const receiver = createWebhookHandler({
 *   secret,
 *   on: { 'user.kyc_updated': async (event) => console.log(event.data.current.status) },
 *   logLevel: 'off', // the check's forged deliveries would each be a warn line
 * });
 * // A fetch-style receiver (edge runtimes, route handlers), checked in-process through the fetch option;
 * // a receiver behind a server is checked by its URL alone.
 * const report = await checkReceiver({
 *   url: 'https://partner.example/webhooks',
 *   secret,
 *   retryDelay: 0,
 *   fetch: async (input, init) => receiver(new Request(input, init)),
 * });
 * if (!report.ok) throw new Error(formatReceiverReport(report)); // one line per check, with the fixes
 * console.log(report.counts); // { pass: 12, fail: 0, warn: 0, skip: 1 }: one secret, so no rotation
 * ```
 */
export async function checkReceiver(options: CheckReceiverOptions): Promise<ReceiverReport> {
  const secrets = typeof options.secret === 'string' ? [options.secret] : [...options.secret];
  if (secrets.length === 0 || secrets.some((s) => typeof s !== 'string' || s === '')) {
    throw new TypeError(
      'checkReceiver needs the webhook secret: a non-empty string, or several while rotating.',
    );
  }
  if (!URL.canParse(options.url) || !/^https?:$/.test(new URL(options.url).protocol)) {
    throw new TypeError(`checkReceiver needs the receiver's http(s) URL, got ${options.url}`);
  }
  const now = options.now ?? Date.now;
  const timeoutMs = parseDuration(options.timeout ?? SPEC_TIMEOUT);
  if (timeoutMs <= 0) throw new RangeError('checkReceiver: timeout must be more than 0 ms.');
  const runId = options.runId ?? Math.random().toString(36).slice(2, 10);
  // The checks load on a first run, not with `inr-payouts/mock`.
  const [{ CHECKS }, { checkEvents }] = await Promise.all([import('./checks.js'), import('./events.js')]);
  const ctx = {
    url: options.url,
    secrets,
    timeoutMs,
    fastMs: parseDuration(options.fast ?? 2_000),
    retryDelayMs: parseDuration(options.retryDelay ?? SPEC_RETRY_DELAY),
    now,
    fetch: options.fetch ?? fetch,
    events: checkEvents(runId, now()),
    ignored: new Set<string>(),
  };
  const checks: CheckResult[] = [];
  for (const [name, check] of CHECKS) {
    const result = { name, ...(await check(ctx)) };
    // Nothing listening: every check would fail for the same reason, which is not one a fix line explains.
    if (checks.length === 0 && /^no answer \((?!.*within)/.test(result.received)) {
      throw new Error(
        `check-receiver could not reach ${options.url}: ${result.received.slice('no answer ('.length, -1)}. Start the receiver (or correct the URL) and run the check again.`,
      );
    }
    checks.push(result);
  }
  const counts: Record<CheckGrade, number> = { pass: 0, fail: 0, warn: 0, skip: 0 };
  for (const check of checks) counts[check.grade] += 1;
  return { url: options.url, ok: counts.fail === 0, checks, counts, timeoutMs };
}

/**
 * The report as text, one check per line: grade, name, what was sent, what came back, what the spec expects and,
 * for a failure or a warning, how to fix it; then a summary line.
 * @example
 * ```ts
 * import { formatReceiverReport, type ReceiverReport } from 'inr-payouts/mock';
 * const print = (report: ReceiverReport) => console.log(formatReceiverReport(report));
 * ```
 */
export function formatReceiverReport(report: ReceiverReport): string {
  const lines = [`check-receiver ${report.url} (delivery time-out ${report.timeoutMs} ms)`];
  const width = Math.max(...report.checks.map((check) => check.name.length));
  for (const check of report.checks) {
    const parts = [
      `${check.grade.toUpperCase().padEnd(4)} ${check.name.padEnd(width)}`,
      `sent: ${check.sent}`,
      `got: ${check.received}`,
      `expected: ${check.expected}`,
    ];
    if (check.fix) parts.push(`fix: ${check.fix}`);
    lines.push(parts.join(' | '));
  }
  const { pass, fail, warn, skip } = report.counts;
  const verdict = report.ok ? 'the receiver passes' : 'the receiver fails: see the fixes above';
  lines.push(`${pass} passed, ${fail} failed, ${warn} warned, ${skip} skipped: ${verdict}`);
  return lines.join('\n');
}
