/**
 * The replay bundle as a helper, so the standalone server serves it (`POST /__mock/bundle`) like any other.
 */
import type { MockBundle } from '../engine/bundle.js';
import { MockHelperError } from '../engine/errors.js';
import type { ServiceInternals } from '../engine/internals.js';

export function bundleHelper(mock: ServiceInternals) {
  /**
   * Every input the service took so far, as one replay bundle (docs/mock-server.md, "Exact replays").
   * @example
   * ```ts
   * const bundle = mock.helpers.bundle();
   * console.log(bundle.format, bundle.version); // 'inr-payouts-mock-bundle' 1
   * ```
   */
  return (): MockBundle => {
    const recorder = mock.recording;
    if (!recorder) throw new MockHelperError('This service records nothing, so it has no bundle to give');
    return recorder.bundle();
  };
}
