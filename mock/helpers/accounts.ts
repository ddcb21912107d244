/**
 * Partner accounts: add one, read one, change its settings (webhook URL, rate limit, allow-list, prefunded).
 */
import { type CreateAccountInput, createAccount } from '../core/accounts.js';
import { MockHelperError } from '../core/errors.js';
import type { MockRuntime } from '../core/runtime.js';
import type { AccountRecord, AccountSettings } from '../state/accounts.js';

/**
 * Account helpers.
 * @example
 * const accounts = accountHelpers(runtime);
 */
export function accountHelpers(rt: MockRuntime) {
  const find = (accountId?: string): AccountRecord => {
    const id = accountId ?? rt.state.accounts.defaultId;
    const account = rt.state.accounts.byId[id];
    if (!account) throw new MockHelperError(`No account ${id} in this mock`);
    return account;
  };
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
      structuredClone(createAccount(rt.state, input)),
    /**
     * An account (the default one when no id is given), as a copy.
     * @example
     * ```ts
     * console.log(mock.helpers.accounts.get().keys.live); // 'pk_live_…'
     * ```
     */
    get: ({ accountId }: { accountId?: string } = {}): AccountRecord => structuredClone(find(accountId)),
    /**
     * Changes settings of an account (the default one when no id is given); top-level fields are replaced.
     * @example
     * ```ts
     * mock.helpers.accounts.update({ ipAllowList: { enabled: true, addresses: ['203.0.113.7'] } });
     * ```
     */
    update: ({ accountId, ...patch }: Partial<AccountSettings> & { accountId?: string }): AccountRecord => {
      const account = find(accountId);
      Object.assign(account, structuredClone(patch));
      return structuredClone(account);
    },
  };
}
