/**
 * Partner accounts: add one, read one, change its settings (webhook URL, rate limit, allow-list, prefunded).
 */
import type { CreateAccountInput } from '../engine/accounts.js';
import type { ServiceInternals } from '../engine/internals.js';
import { createAccount, updateAccount } from '../operations/accounts.js';
import type { AccountRecord, AccountSettings } from '../state/accounts.js';
import { accountOf } from './lookup.js';

export function accountHelpers(mock: ServiceInternals) {
  return {
    /**
     * Adds an account (keys and secret from the seed unless given) and returns it.
     * @example
     * ```ts
     * const other = mock.helpers.accounts.create({ name: 'Other partner' });
     * console.log(other.keys.sandbox.startsWith('pk_sandbox_')); // true
     * ```
     */
    create: (input: CreateAccountInput = {}): AccountRecord =>
      structuredClone(createAccount(mock.state, input)),
    /**
     * An account (the default one when no id is given), as a copy.
     * @example
     * ```ts
     * console.log(mock.helpers.accounts.get().keys.live); // 'pk_live_…'
     * ```
     */
    get: ({ accountId }: { accountId?: string } = {}): AccountRecord =>
      structuredClone(accountOf(mock, accountId)),
    /**
     * Changes settings of an account (the default one when no id is given); top-level fields are replaced.
     * `webhookUrl: null` clears the URL: events are then kept `pending`, as before one was set.
     * @example
     * ```ts
     * mock.helpers.accounts.update({ ipAllowList: { enabled: true, addresses: ['203.0.113.7'] } });
     * ```
     */
    update: (
      input: Partial<Omit<AccountSettings, 'webhookUrl'>> & {
        accountId?: string;
        webhookUrl?: string | null;
      },
    ): AccountRecord => {
      // The contract has checked the whole patch, so a refused one changes nothing; a copy, so the state holds
      // none of the caller's objects.
      const { accountId, ...update } = structuredClone(input);
      const account = accountOf(mock, accountId);
      updateAccount(account, update);
      return structuredClone(account);
    },
  };
}
