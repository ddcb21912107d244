/**
 * `GET /v2/account`, `PUT /v2/account/developer-fee`, `GET /v2/account/activity` (spec 2.1, 2.2, 2.6, 4.1)
 * and `GET /v2/account/credit` (assumed, docs/assumptions.md; spec 2.5).
 */
import { Decimal } from 'decimal.js';
import { ENDPOINTS } from '../../src/endpoints/index.js';
import type { Account, ActivityItem } from '../../src/schemas/account.js';
import { DEFAULT_ACTIVITY_LIMIT } from '../../src/schemas/common.js';
import { defineModule } from '../engine/module.js';
import { route } from '../engine/route.js';
import { transactionAt } from '../machines/confirmations.js';
import { accountCredit, setDeveloperFee } from '../operations/accounts.js';
import { completedVolume } from '../operations/volume.js';
import type { MockState } from '../state/mock-state.js';
import type { TransactionRecord } from '../state/transactions.js';

/** Characters of the API key shown as `apiKeyPrefix` (the environment prefix and four more). */
const KEY_PREFIX_EXTRA = 4;

const getAccount = route(ENDPOINTS['account.retrieve'], ({ account, environment, state }) => {
  const key = environment === 'production' ? account.keys.live : account.keys.sandbox;
  const prefix = environment === 'production' ? 'pk_live_' : 'pk_sandbox_';
  const data: Account = {
    id: account.id,
    name: account.name,
    email: account.email,
    environment,
    status: account.status,
    apiKeyPrefix: key.slice(0, prefix.length + KEY_PREFIX_EXTRA),
    webhookUrl: account.webhookUrl,
    volume: completedVolume(state, account.id),
    limits: { rateLimit: account.limits.rateLimit },
  };
  return { data };
});

const putDeveloperFee = route(ENDPOINTS['account.updateDeveloperFee'], ({ account, body }) => {
  const fee = setDeveloperFee(account, body);
  const percent = new Decimal(String(body.percent)).times(100).toFixed();
  return {
    data: { ...fee },
    message: body.enabled
      ? `Developer fee enabled at ${percent}%; it applies to new transactions`
      : 'Developer fee disabled; new transactions carry no developer fee',
  };
});

/** One activity item (spec 2.6): `payoutAmountInr` is null until the payout is processed. */
function activityItem(state: MockState, stored: TransactionRecord): ActivityItem {
  const txn = transactionAt(stored, state.clock.now);
  const processed = txn.payout?.status === 'completed';
  return {
    id: txn.id,
    status: txn.status,
    depositAmount: txn.amount,
    depositAsset: txn.asset,
    depositNetwork: txn.network,
    payoutAmountInr: processed ? (txn.payout?.amountInr ?? null) : null,
    payoutStatus: txn.payout?.status ?? 'pending',
    user: { id: txn.userId, name: state.users.byId[txn.userId]?.name ?? null },
    createdAt: txn.createdAt,
    updatedAt: txn.updatedAt,
  };
}

const listActivity = route(ENDPOINTS['account.listActivity'], ({ query, state, account }) => {
  const limit = query.limit ?? DEFAULT_ACTIVITY_LIMIT;
  // Ids are kept in creation order, so the most recent are the last ones: the cost does not grow with the store.
  const ids = state.transactions.idsByAccount[account.id] ?? [];
  const data: ActivityItem[] = [];
  for (let i = ids.length - 1; i >= 0 && data.length < limit; i--) {
    const txn = state.transactions.byId[ids[i] ?? ''];
    if (txn) data.push(activityItem(state, txn));
  }
  return { data };
});

const getCredit = route(ENDPOINTS['account.retrieveCredit'], ({ state, account }) => ({
  data: accountCredit(state, account),
}));

/** The account routes. */
export const account = defineModule({
  name: 'account',
  routes: [getAccount, putDeveloperFee, listActivity, getCredit],
});
