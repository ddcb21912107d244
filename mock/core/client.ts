/**
 * `mock.createClient`: a `PayoutClient` wired to one mock service (its base URL and the default account's
 * sandbox key) whose every wait runs on the service's virtual clock.
 */
import { type ClientOptions, PayoutClient } from '../../src/index.js';
import { virtualClientClock } from './client-clock.js';
import type { MockRuntime } from './runtime.js';

/**
 * A client for `rt`: `options` override the key, base URL and anything else (a `clock` of your own too).
 * @example
 * const client = createMockClient(runtime, { maxRetries: 1 });
 */
export function createMockClient(rt: MockRuntime, options: ClientOptions = {}): PayoutClient {
  const account = rt.state.accounts.byId[rt.state.accounts.defaultId];
  const settings = {
    apiKey: account?.keys.sandbox,
    baseUrl: rt.options.baseUrl,
    clock: virtualClientClock(rt.clock),
    ...options,
  };
  return new PayoutClient(settings);
}
