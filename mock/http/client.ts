/**
 * `mock.createClient`: a `PayoutClient` wired to one mock service (its base URL and the default account's
 * sandbox key) whose every wait runs on the service's virtual clock.
 */
import { type ClientOptions, PayoutClient } from '../../src/index.js';
import type { VirtualClientClock } from './client-clock.js';

/** What a client needs of a service: its base URL and default sandbox key (a `MockService` is one). */
export interface MockClientTarget {
  readonly baseUrl: string;
  readonly sandboxKey: string;
}

/**
 * A client for `target` on `clock`: `options` override the key, base URL and anything else (a `clock` of your
 * own too).
 */
export function createMockClient(
  target: MockClientTarget,
  clock: VirtualClientClock,
  options: ClientOptions = {},
): PayoutClient {
  return new PayoutClient({ apiKey: target.sandboxKey, baseUrl: target.baseUrl, clock, ...options });
}
