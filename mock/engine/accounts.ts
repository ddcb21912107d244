/** Creating accounts and finding the account behind an API key (spec 2.1, 5). */
import { SANDBOX_TRANSACTIONS } from '../sandbox-values.js';
import type { AccountRecord, AccountSettings } from '../state/accounts.js';
import type { MockState } from '../state/mock-state.js';
import { randomString, uuid } from './ids.js';
import { nowIso } from './timers.js';

/** Default API requests per minute: high enough that ordinary tests never meet the limit. @example DEFAULT_RATE_LIMIT // 600 */
export const DEFAULT_RATE_LIMIT = 600;

/** Settings of a new account; anything left out gets its default, keys and secret come from the seed. */
export type CreateAccountInput = Partial<AccountSettings> & {
  id?: string;
  sandboxKey?: string;
  liveKey?: string;
};

/** Adds an account to the state, with the sandbox's default INR pool of settled tranches, and returns it. */
export function createAccount(state: MockState, input: CreateAccountInput = {}): AccountRecord {
  const { id, sandboxKey, liveKey, ...settings } = input;
  const account: AccountRecord = {
    id: id ?? uuid(state),
    name: 'Test Partner',
    email: 'partner@example.com',
    status: 'active',
    webhookSecret: `whsec_${randomString(state, 32)}`,
    developerFee: { enabled: false, percent: 0 },
    limits: { rateLimit: DEFAULT_RATE_LIMIT },
    ipAllowList: { enabled: false, addresses: [] },
    prefunded: { approved: false, creditLimitUsd: '0' },
    keys: {
      sandbox: sandboxKey ?? `pk_sandbox_${randomString(state, 24)}`,
      live: liveKey ?? `pk_live_${randomString(state, 24)}`,
    },
    createdAt: nowIso(state),
    ...structuredClone(settings),
  };
  if (state.accounts.byId[account.id]) throw new Error(`An account with id ${account.id} already exists`);
  const keys = Object.values(state.accounts.byId).flatMap((a) => [a.keys.sandbox, a.keys.live]);
  if (keys.includes(account.keys.sandbox) || keys.includes(account.keys.live)) {
    throw new Error('Another account already uses that API key');
  }
  state.accounts.byId[account.id] = account;
  // Every account settles standard payouts from an INR pool (spec 2.4), so attribution works out of the box.
  state.transactions.tranchesByAccount[account.id] = SANDBOX_TRANSACTIONS.defaultTranches.map((t) => ({
    ...t,
    remainingInr: t.inrAmount,
    settledAt: account.createdAt,
  }));
  return account;
}

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
