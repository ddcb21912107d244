/**
 * Partner accounts (spec 2.1, 2.2, 2.5, 5): keys, webhook settings, developer fee, limits, allow-list and
 * prefunded approval. Plain data so snapshots and the standalone server's state file are JSON.
 */
import { keyed } from './records.js';

/** What a test may set on an account; everything else (id, keys) is generated from the seed. */
export interface AccountSettings {
  name: string;
  email: string;
  /** Account status; the spec does not list the values, the mock uses `active`. */
  status: string;
  /** Where webhooks go; absent means events are recorded but not delivered. */
  webhookUrl?: string;
  webhookSecret: string;
  developerFee: { enabled: boolean; percent: number };
  limits: { rateLimit: number };
  ipAllowList: { enabled: boolean; addresses: string[] };
  /** `creditLimitUsd` is a decimal string, like all money. */
  prefunded: { approved: boolean; creditLimitUsd: string };
}

/** A partner account as the mock stores it. */
export interface AccountRecord extends AccountSettings {
  /** UUID, as spec 2.1 says. */
  id: string;
  keys: { sandbox: string; live: string };
  createdAt: string;
}

/** The accounts collection. */
export interface AccountsSlice {
  byId: Record<string, AccountRecord>;
  /** The account `createMockService` made; `service.sandboxKey` belongs to it. */
  defaultId: string;
}

export function emptyAccounts(): AccountsSlice {
  return { byId: keyed(), defaultId: '' };
}
