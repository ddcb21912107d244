/** The suite's errors, apart from its runner, so `inr-payouts/mock` exports them without loading it. */
/**
 * Why a run could not start (a live key, an unknown tier, a target that refuses the key); nothing was sent to
 * the target when the key was the problem.
 * @example
 * ```ts
 * import { ConformanceError, runConformance } from 'inr-payouts/mock';
 * await runConformance({ baseUrl: 'https://api.example.test', apiKey: 'pk_live_x' }).catch((e) => e instanceof ConformanceError);
 * ```
 */
export class ConformanceError extends Error {
  override readonly name = 'ConformanceError';
}
