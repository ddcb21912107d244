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

/**
 * The target could not be asked: a request that kept failing (time-outs, network errors, 5xx, 429) after the
 * client's retries. Never a difference: the run reports the request as unavailable.
 * @example
 * ```ts
 * import { TargetUnavailable } from 'inr-payouts/mock';
 * new TargetUnavailable('GET /v2/account', 'answered 503 on each of 3 attempts').message;
 * // 'target unavailable: GET /v2/account answered 503 on each of 3 attempts'
 * ```
 */
export class TargetUnavailable extends Error {
  override readonly name = 'TargetUnavailable';
  constructor(
    /** `METHOD path` of the request. */
    readonly request: string,
    /** What happened to it. */
    readonly what: string,
  ) {
    super(`target unavailable: ${request} ${what}`);
  }
}
