/**
 * The account (spec 2.1, 4.1, 8): its read, the developer fee's range, and the activity list's limits.
 */
import type { Scenario } from '../types.js';

/**
 * The account scenarios.
 * @example
 * const ids = ACCOUNT_SCENARIOS.map((s) => s.id);
 */
export const ACCOUNT_SCENARIOS: Scenario[] = [
  {
    id: 'account.read',
    title: 'The account reads with every field of 2.1',
    spec: '2.1, 4.1',
    tier: 'read-only',
    async run(t) {
      const account = await t.client.account.retrieve();
      t.step('account.environment', account.environment);
      t.step('apiKeyPrefix starts the key', t.apiKey.startsWith(account.apiKeyPrefix));
    },
  },
];
