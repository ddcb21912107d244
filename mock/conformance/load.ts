/**
 * `runConformance` and `compareObservations`, which load the runner and the comparison on their first call: the
 * runner, its scenarios and the contract's check (zod's full build, the JSON Schemas) are most of the suite, and
 * a test suite that imports `inr-payouts/mock` for the mock never runs them.
 */
import type { ConformanceOptions, ConformanceReport, Difference, Observation } from './types.js';

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

/**
 * Every difference between the two sides' observations, in order. Observations are paired by position; when a
 * pair is not the same kind of thing (another request, another step), the sides took different paths and the
 * comparison stops there with one `order` difference. A side that stopped on an unexpected error adds a
 * difference only when nothing before it already explains it.
 * @example
 * ```ts
 * import { compareObservations } from 'inr-payouts/mock';
 * const step = (value: unknown) => ({ kind: 'step' as const, label: 'transaction.status', value, compare: 'value' as const });
 * (await compareObservations([step('completed')], [step('failed')]))[0]?.text;
 * // 'transaction.status: value: mock "completed", sandbox "failed"'
 * ```
 */
export async function compareObservations(
  mock: readonly Observation[],
  sandbox: readonly Observation[],
): Promise<Difference[]> {
  const [{ compareSides }, { loadContractCheck }] = await Promise.all([
    import('./compare.js'),
    import('./contract-problems.js'),
  ]);
  await loadContractCheck();
  return compareSides(mock, sandbox).differences;
}
