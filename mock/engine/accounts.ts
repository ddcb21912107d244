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

type KeyHolder = { account: AccountRecord; environment: 'sandbox' | 'production' };

/** The last key found per accounts collection: every request looks its key up, most with the key before. */
const lastFound = new WeakMap<object, { key: string; found: KeyHolder }>();

/** The account and environment of an API key, if any account holds it. */
export function findAccountByKey(state: MockState, key: string): KeyHolder | undefined {
  const { byId } = state.accounts;
  const last = lastFound.get(byId);
  // Checked again on each use: the account may have been replaced or its keys rotated since.
  if (last?.key === key) {
    const { account, environment } = last.found;
    const held = environment === 'sandbox' ? account.keys.sandbox : account.keys.live;
    if (byId[account.id] === account && held === key) return last.found;
  }
  for (const account of Object.values(byId)) {
    const environment =
      account.keys.sandbox === key ? 'sandbox' : account.keys.live === key ? 'production' : undefined;
    if (environment === undefined) continue;
    const found = { account, environment } as const;
    lastFound.set(byId, { key, found });
    return found;
  }
  return undefined;
}
