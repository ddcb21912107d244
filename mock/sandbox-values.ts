/**
 * Sandbox test values, like test card numbers: the defaults a mock starts with and the magic inputs that
 * make the simulation take a particular path. Documented in docs/sandbox-values.md; keep both in step.
 * Each area adds its own group below (bank penny drop, UPI, names, amounts).
 */

/**
 * Defaults of `createMockService`.
 * @example
 * ```ts
 * import { createMockService, SANDBOX_DEFAULTS } from 'inr-payouts/mock';
 *
 * const mock = createMockService();
 * if (mock.baseUrl !== SANDBOX_DEFAULTS.baseUrl) throw new Error('the default base URL');
 * if (mock.clock.nowIso() !== SANDBOX_DEFAULTS.startTime) throw new Error('the default start time');
 * ```
 */
export const SANDBOX_DEFAULTS = {
  /** Where the handlers answer when no `baseUrl` is given. */
  baseUrl: 'https://sandbox.inr-payouts.test',
  /** Virtual clock start when no `startTime` is given. */
  startTime: '2025-01-01T00:00:00.000Z',
  /** Seed when none is given. */
  seed: 'inr-payouts',
  /** The caller address in-process; the standalone server sets the real one in `clientIpHeader`. */
  clientIp: '127.0.0.1',
  /** Header that carries the caller address to the IP allow-list check. */
  clientIpHeader: 'x-mock-client-ip',
} as const;
