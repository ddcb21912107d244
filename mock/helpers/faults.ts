/** Fault injection helpers. */
import type { ChaosOptions } from '../contract/chaos.js';
import type { ServiceInternals } from '../engine/internals.js';
import { startChaos } from '../policies/chaos.js';
import { clearFaults, type FaultSpec, injectFault } from '../policies/faults.js';
import type { ChaosDraw, ChaosRecord } from '../state/chaos.js';
import type { FaultRecord } from '../state/http.js';

export function faultHelpers(mock: ServiceInternals) {
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
    inject: (spec: FaultSpec): FaultRecord => structuredClone(injectFault(mock.state, spec)),
    /**
     * The faults still waiting.
     * @example
     * ```ts
     * mock.helpers.faults.inject({ kind: 'error', status: 503, times: 2 });
     * console.log(mock.helpers.faults.list().length); // 1
     * ```
     */
    list: (): FaultRecord[] => structuredClone(mock.state.http.faults),
    /**
     * Seeded chaos: from now on each API request (or each one matching `match`) draws, with probability
     * `rate`, a fault among `kinds`: a 5xx, a 429 burst, latency past the client's time-out, a connection
     * dropped before or after the work. The same seed and the same requests replay the same faults. Placed
     * faults (`inject`) are taken first. `clear()` ends it.
     * @example
     * ```ts
     * mock.helpers.faults.chaos({ seed: 7, rate: 0.3, kinds: ['5xx', '429', 'drop-after-commit'] });
     * const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
     * const result = await client.transactions.createWithRecovery({ userId, amount: '100', asset: 'USDT', network: 'polygon', partnerReference: 'order-7' });
     * mock.helpers.faults.clear();
     * console.log(result.transactionId, mock.helpers.faults.chaosLog().length);
     * ```
     */
    chaos: (options: ChaosOptions): ChaosRecord => structuredClone(startChaos(mock.state, options)),
    /**
     * The faults chaos drew so far, in request order (empty when chaos is off).
     * @example
     * ```ts
     * mock.helpers.faults.chaos({ seed: 1 });
     * console.log(mock.helpers.faults.chaosLog()); // [] until requests arrive
     * ```
     */
    chaosLog: (): ChaosDraw[] => structuredClone(mock.state.http.chaos?.log ?? []),
    /**
     * Removes every waiting fault and ends chaos.
     * @example
     * ```ts
     * mock.helpers.faults.clear();
     * ```
     */
    clear: (): void => clearFaults(mock.state),
  };
}
