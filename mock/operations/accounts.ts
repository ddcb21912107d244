/**
 * An account's settings (spec 2.2, 4.1): the developer fee a partner sets through the API, and the settings a
 * test changes through `mock.helpers.accounts.update` (the mock's own).
 */
import type { DeveloperFeeRequest } from '../../src/schemas/account.js';
import type { AccountRecord, AccountSettings } from '../state/accounts.js';

/**
 * Sets the developer fee new transactions of `account` carry; returns it as stored.
 * @example
 * const fee = setDeveloperFee(account, { enabled: true, percent: 0.01 });
 */
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
 * @example
 * updateAccount(account, { limits: { rateLimit: 5 }, webhookUrl: null });
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
