/**
 * Accounts (spec 2.1, 2.2, 2.4, 4.1): adding one with its default INR pool, the state a service starts from, the
 * developer fee a partner sets through the API, and the settings a test changes through
 * `mock.helpers.accounts.update` (the mock's own).
 */
import type { Credit, DeveloperFeeRequest } from '../../src/schemas/account.js';
import { type CreateAccountInput, DEFAULT_RATE_LIMIT } from '../engine/accounts.js';
import { randomString, uuid } from '../engine/ids.js';
import { createEmptyState } from '../engine/internals.js';
import type { ResolvedOptions } from '../engine/options.js';
import { nowIso } from '../engine/timers.js';
import { creditFigures } from '../machines/prefunded.js';
import { startChaos } from '../policies/chaos.js';
import { SANDBOX_TRANSACTIONS } from '../sandbox-values.js';
import type { AccountRecord, AccountSettings } from '../state/accounts.js';
import type { MockState } from '../state/mock-state.js';

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

/**
 * The state a service starts from (and `reset` returns to): empty, plus the default account as the options
 * describe it (keys, secret, webhook URL...) and the chaos they start.
 */
export function initialState(options: ResolvedOptions): MockState {
  const state = createEmptyState(options.seed, options.startMs);
  state.accounts.defaultId = createAccount(state, options.account).id;
  if (options.chaos) startChaos(state, options.chaos);
  return state;
}

/** The prefunded credit of an account (spec 2.5): its approval, limit, outstanding and available amounts. */
export function accountCredit(state: MockState, account: AccountRecord): Credit {
  const outstanding = state.transactions.outstandingUsdByAccount[account.id] ?? '0';
  return {
    prefundedEnabled: account.prefunded.approved,
    ...creditFigures(account.prefunded.creditLimitUsd, outstanding),
  };
}

/** Sets the developer fee new transactions of `account` carry; returns it as stored. */
export function setDeveloperFee(
  account: AccountRecord,
  fee: DeveloperFeeRequest,
): AccountRecord['developerFee'] {
  account.developerFee = { enabled: fee.enabled, percent: fee.percent };
  return account.developerFee;
}

/**
 * Replaces the given top-level settings of `account`; `webhookUrl: null` removes the URL, so events are kept
 * `pending` as before one was set.
 */
export function updateAccount(
  account: AccountRecord,
  update: Partial<Omit<AccountSettings, 'webhookUrl'>> & { webhookUrl?: string | null },
): void {
  const { webhookUrl, ...patch } = update;
  Object.assign(account, patch);
  if (webhookUrl === null) delete account.webhookUrl;
  else if (webhookUrl !== undefined) account.webhookUrl = webhookUrl;
}
