/**
 * Fault injection helpers.
 */
import { type FaultSpec, injectFault } from '../core/faults.js';
import type { MockRuntime } from '../core/runtime.js';
import type { FaultRecord } from '../state/http.js';

/**
 * Fault helpers.
 * @example
 * const faults = faultHelpers(runtime);
 */
export function faultHelpers(rt: MockRuntime) {
  return {
    /**
     * Injects a fault for the next matching request(s).
     * @example
     * ```ts
     * mock.helpers.faults.inject({ match: { method: 'POST', path: '/v2/users' }, kind: 'drop-after-commit' });
     * ```
     * service.helpers.faults.inject({ kind: 'error', status: 503, times: 3 });
     * service.helpers.faults.inject({ kind: 'latency', ms: 200 });
     */
    inject: (spec: FaultSpec): FaultRecord => structuredClone(injectFault(rt.state, spec)),
    /**
     * The faults still waiting.
     * @example
     * ```ts
     * mock.helpers.faults.inject({ kind: 'error', status: 503, times: 2 });
     * console.log(mock.helpers.faults.list().length); // 1
     * ```
     */
    list: (): FaultRecord[] => structuredClone(rt.state.http.faults),
    /**
     * Removes every waiting fault.
     * @example
     * ```ts
     * mock.helpers.faults.clear();
     * ```
     */
    clear(): void {
      rt.state.http.faults = [];
    },
  };
}
