/**
 * The account (spec 2.1, 2.5, 4.1, 8): its read, the developer fee's range, the activity list and its limit, and
 * the prefunded credit read (assumed endpoint).
 */
import type { Scenario } from '../types.js';
import { raw } from './support.js';

/** The account scenarios. */
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
  {
    id: 'account.developer-fee-range',
    title: 'A developer fee outside 0 to 0.05 answers 400 and changes nothing',
    spec: '2.2, 4.1, 7.2',
    // A write: a service that accepted the fee would be changed by it, so not read-only.
    tier: 'creates',
    async run(t) {
      await raw(t, 'PUT', '/v2/account/developer-fee', { enabled: true, percent: 0.06 });
      await raw(t, 'PUT', '/v2/account/developer-fee', { enabled: true, percent: -0.01 });
    },
  },
  {
    id: 'account.developer-fee-update',
    title: 'Setting the developer fee answers the setting and a message',
    spec: '2.2, 4.1',
    tier: 'mock-helpers',
    async run(t) {
      // The fee cannot be read back, so a sandbox's own setting could not be restored: mock targets only.
      t.needHelpers('setting the developer fee (it cannot be read back and restored)');
      const fee = await t.client.account.updateDeveloperFee({ enabled: true, percent: 0.01 }).withResponse();
      t.step('developer fee has a message', typeof fee.message === 'string');
      await t.client.account.updateDeveloperFee({ enabled: false, percent: 0 });
    },
  },
  {
    id: 'account.activity-limit',
    title: 'The activity list: default, limit 50, and limits outside 1 to 50 refused',
    spec: '2.6, 4.1, 8',
    tier: 'read-only',
    async run(t) {
      const first = await t.client.account.listActivity();
      t.step('activity default length at most 10', first.length <= 10);
      const most = await t.client.account.listActivity({ limit: 50 });
      t.step('activity limit 50 length at most 50', most.length <= 50);
      await raw(t, 'GET', '/v2/account/activity', undefined, { limit: 51 });
      await raw(t, 'GET', '/v2/account/activity', undefined, { limit: 0 });
    },
  },
  {
    id: 'account.credit',
    title: 'The prefunded credit reads (assumed GET /v2/account/credit)',
    spec: '2.5 (endpoint not shown)',
    tier: 'read-only',
    async run(t) {
      await t.client.account.retrieveCredit();
    },
  },
];
