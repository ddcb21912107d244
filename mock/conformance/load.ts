/**
 * `runConformance`, which loads the runner on its first call: the runner, its scenarios and the contract's JSON
 * Schemas are most of the suite, and a test suite that imports `inr-payouts/mock` for the mock never runs them.
 */
import type { ConformanceOptions, ConformanceReport } from './types.js';

/**
 * Runs the conformance suite: each scenario on the reference (an in-process mock) and on the target (`baseUrl`,
 * or a second in-process mock when it is left out), then compares the two sides by shape (`compareObservations`).
 * Refuses a `pk_live_` key before anything is sent. Against a target without the mock's helpers, scenarios that
 * need them are skipped with the reason. Every request to the target is paced to its account's
 * `limits.rateLimit`, read first, and everything created is named with the run's `prefix`.
 * @example
 * ```ts
 * import { runConformance } from 'inr-payouts/mock';
 *
 * const report = await runConformance({ tier: 'read-only' }); // the in-process mock against itself
 * if (!report.ok) throw new Error(report.results.flatMap((r) => r.differences.map((d) => d.text)).join('\n'));
 * ```
 */
export async function runConformance(options: ConformanceOptions = {}): Promise<ConformanceReport> {
  const { runSuite } = await import('./run.js');
  return runSuite(options);
}
