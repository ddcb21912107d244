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

/** An account and the environment of the key that found it. */
export type KeyHolder = { account: AccountRecord; environment: 'sandbox' | 'production' };

/** The account and environment of an API key, if any account holds it. */
export function findAccountByKey(
  service: { readonly state: MockState; lastKey: { key: string; found: KeyHolder } | undefined },
  key: string,
): KeyHolder | undefined {
  const { byId } = service.state.accounts;
  const last = service.lastKey;
  // Checked again on each use: the state, the account or its keys may have been replaced since.
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
    service.lastKey = { key, found };
    return found;
  }
  return undefined;
}
