/**
 * What a new account is made of, and finding the account behind an API key (spec 2.1, 5); adding one is an
 * operation (`mock/operations/accounts.ts`).
 */
import type { AccountRecord, AccountSettings } from '../state/accounts.js';
import type { MockState } from '../state/mock-state.js';

/** Default API requests per minute: high enough that ordinary tests never meet the limit. @example DEFAULT_RATE_LIMIT // 600 */
export const DEFAULT_RATE_LIMIT = 600;

/** Settings of a new account; anything left out gets its default, keys and secret come from the seed. */
export type CreateAccountInput = Partial<AccountSettings> & {
  id?: string;
  sandboxKey?: string;
  liveKey?: string;
};

/** The account and environment of an API key, if any account holds it. */
export function findAccountByKey(
  state: MockState,
  key: string,
): { account: AccountRecord; environment: 'sandbox' | 'production' } | undefined {
  for (const account of Object.values(state.accounts.byId)) {
    if (account.keys.sandbox === key) return { account, environment: 'sandbox' };
    if (account.keys.live === key) return { account, environment: 'production' };
  }
  return undefined;
}
