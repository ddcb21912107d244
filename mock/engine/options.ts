/** Options of `createMockService` and their defaults, in one place. */

import type { ChaosOptions } from '../contract/chaos.js';
import { MOCK_PROFILES, type MockProfile } from '../contract/mock-only.js';
import { SANDBOX_DEFAULTS } from '../sandbox-values.js';
import type { CreateAccountInput } from './accounts.js';
import { type MockBundle, RECORDING_BUDGET_BYTES } from './bundle.js';
import { JOURNAL_BUDGET_BYTES } from './journal.js';

/**
 * Options of `createMockService`.
 * @example
 * ```ts
 * import { createMockService } from 'inr-payouts/mock';
 * createMockService({ seed: 'checkout-tests', startTime: '2025-03-01T09:00:00Z', account: { limits: { rateLimit: 5 } } });
 * ```
 */
export interface MockServiceOptions {
  /** Base URL the handlers answer under; default `https://sandbox.inr-payouts.test`. */
  baseUrl?: string;
  /** Seed of every generated ID, key, OTP and address; default `inr-payouts`. */
  seed?: string | number;
  /** Start of the virtual clock (ISO string, Date or epoch ms); default 2025-01-01T00:00:00Z. */
  startTime?: string | number | Date;
  /** Settings of the default account (keys may be fixed too). */
  account?: CreateAccountInput;
  /**
   * Real ms `clock.advance` and `clock.runDue` wait for each webhook delivery's answer, so its retry lands
   * at its virtual moment; past it the clock moves on and the late answer delays only its own event.
   * Default 2000 (the standalone server: 0).
   */
  webhookWaitMs?: number;
  /**
   * A bundle (`mock.bundle()`, `POST /__mock/bundle`) to rebuild: the service takes the bundle's options (its
   * base URL, seed, start time, account and `webhookWaitMs`, whatever else is given) and runs its steps, so its
   * state, journal and webhook bodies end as the recording's did; `await mock.replayed` waits for it. A bundle
   * that is not valid throws `MockArgumentError` naming the field, and no service is made.
   */
  replay?: MockBundle;
  /**
   * The byte budgets of what grows with traffic rather than with state (the mock's own; the service has no
   * such thing): `recordingBytes` for the replay recording (default `RECORDING_BUDGET_BYTES`, 16 MiB) and
   * `journalBytes` for the journal (default `JOURNAL_BUDGET_BYTES`, 16 MiB). Past its budget each lets go of
   * its oldest part and says where its window starts (a bundle's `window`, the journal's `dropped`).
   */
  budgets?: MockBudgets;
  /**
   * `default` (the default) answers with the mock's additions (`X-Mock-Explain`, failure reasons, the
   * attribution status …, the table of `docs/mock-only.md`); `strict` answers exactly what the spec shows, so
   * a suite run against it proves the partner's code does not depend on them. The helpers answer in both.
   */
  profile?: MockProfile;
  /**
   * Seeded chaos from the start (`helpers.faults.chaos` takes the same options; the server's `--chaos`), begun
   * afresh with its seed by every `reset`. A bad option throws `RangeError` naming it, and no service is made.
   */
  chaos?: ChaosOptions;
}

/** Byte budgets of the recording and the journal. */
export interface MockBudgets {
  recordingBytes?: number;
  journalBytes?: number;
}

/** The smallest budget taken: a few entries' worth, so a budget given in MB by mistake as bytes is refused. */
const MIN_BUDGET_BYTES = 64 * 1024;

function budget(name: string, given: number | undefined, fallback: number): number {
  const value = given ?? fallback;
  if (!Number.isFinite(value) || value < MIN_BUDGET_BYTES)
    throw new RangeError(
      `budgets.${name} must be a number of bytes of at least ${MIN_BUDGET_BYTES}, got ${String(value)}`,
    );
  return value;
}

/** Options with every default applied (`baseUrl` normalised: origin and path as request URLs spell them). */
export type ResolvedOptions = ReturnType<typeof resolveOptions>;

/**
 * The base URL as the URL parser serialises request URLs (lower-case scheme and host, no default port), without
 * a trailing slash: what every request URL is compared with, normalised here once.
 */
function normaliseBaseUrl(given: string): string {
  if (!URL.canParse(given))
    throw new RangeError(
      `baseUrl must be an absolute URL such as https://sandbox.example.test, got ${given}`,
    );
  const url = new URL(given);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** Applies the defaults and checks the start time and the base URL. */
export function resolveOptions(options: MockServiceOptions = {}) {
  const start = options.startTime ?? SANDBOX_DEFAULTS.startTime;
  const startMs =
    start instanceof Date ? start.getTime() : typeof start === 'number' ? start : Date.parse(start);
  if (!Number.isFinite(startMs)) throw new RangeError(`startTime is not a valid time: ${String(start)}`);
  const webhookWaitMs = options.webhookWaitMs ?? SANDBOX_DEFAULTS.webhookWaitMs;
  if (!Number.isFinite(webhookWaitMs) || webhookWaitMs < 0)
    throw new RangeError(`webhookWaitMs must be a non-negative number of ms, got ${String(webhookWaitMs)}`);
  const profile = options.profile ?? 'default';
  if (!MOCK_PROFILES.includes(profile))
    throw new RangeError(`profile must be one of ${MOCK_PROFILES.join(', ')}, got ${String(profile)}`);
  return {
    baseUrl: normaliseBaseUrl(options.baseUrl ?? SANDBOX_DEFAULTS.baseUrl),
    seed: String(options.seed ?? SANDBOX_DEFAULTS.seed),
    startMs,
    account: options.account ?? {},
    webhookWaitMs,
    budgets: {
      recordingBytes: budget('recordingBytes', options.budgets?.recordingBytes, RECORDING_BUDGET_BYTES),
      journalBytes: budget('journalBytes', options.budgets?.journalBytes, JOURNAL_BUDGET_BYTES),
    },
    profile,
    chaos: options.chaos,
  };
}
