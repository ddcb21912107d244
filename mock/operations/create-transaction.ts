/**
 * Creating a transaction (spec 2.4, 2.5, 4.2, 6.2 `transaction.created`): standard and prefunded. Each create
 * stores the record and every index it appears in, emits `transaction.created` and starts its timers (the quote's
 * expiry, or the prefunded payout with its credit hold). The routes run the creation checks of 7.3 and 7.4 first.
 */
import type {
  PrefundedTransactionCreateRequest,
  TransactionCreateRequest,
} from '../../src/schemas/transactions.js';
import { parseDuration } from '../engine/duration.js';
import { nextId } from '../engine/ids.js';
import type { ServiceInternals } from '../engine/internals.js';
import { nowIso } from '../engine/timers.js';
import { depositAddress } from '../machines/deposit-address.js';
import { NETWORK_CONFIRMATIONS } from '../machines/networks.js';
import { holdCredit } from '../machines/prefunded.js';
import { quote } from '../machines/quote.js';
import { SANDBOX_TRANSACTIONS } from '../sandbox-values.js';
import type { AccountRecord } from '../state/accounts.js';
import type { MockState } from '../state/mock-state.js';
import { referenceKey, type TransactionRecord } from '../state/transactions.js';
import { startPayout } from './payouts.js';
import { emitTxn, later, moveIfAllowed, PAYOUT_SETTLE_MS, TXN_TIMERS, txnTask } from './transactions.js';

/** Builds and stores a new transaction (both kinds), indexes it and emits `transaction.created`. */
function store(
  state: MockState,
  account: AccountRecord,
  body: TransactionCreateRequest,
  kind: TransactionRecord['kind'],
  status: TransactionRecord['status'],
  ttl: string,
): TransactionRecord {
  const now = state.clock.now;
  const createdAt = nowIso(state);
  const fee = account.developerFee.enabled ? account.developerFee.percent : 0;
  const txn: TransactionRecord = {
    id: nextId(state, 'txn'),
    accountId: account.id,
    userId: body.userId,
    kind,
    status,
    amount: body.amount,
    asset: body.asset,
    network: body.network,
    partnerReference: body.partnerReference,
    metadata: body.metadata,
    depositAddress: depositAddress(state.seed, body.userId, body.network),
    quote: quote(body.amount, state.transactions.exchangeRate, fee),
    expiresAt: new Date(now + parseDuration(ttl)).toISOString(),
    deposit: {
      expectedAmount: body.amount,
      requiredConfirmations: NETWORK_CONFIRMATIONS[body.network].confirmations,
    },
    timerIds: [],
    createdAt,
    updatedAt: createdAt,
  };
  const { transactions } = state;
  transactions.byId[txn.id] = txn;
  const ids = transactions.idsByAccount[account.id] ?? [];
  ids.push(txn.id);
  transactions.idsByAccount[account.id] = ids;
  transactions.activeByUser[txn.userId] = txn.id;
  if (txn.partnerReference)
    transactions.idByPartnerReference[referenceKey(account.id, txn.partnerReference)] = txn.id;
  emitTxn(state, txn, 'transaction.created', {
    userId: txn.userId,
    partnerReference: txn.partnerReference,
    status: txn.status,
    amount: txn.amount,
    asset: txn.asset,
    network: txn.network,
    depositAddress: txn.depositAddress,
    expiresAt: txn.expiresAt,
    prefunded: kind === 'prefunded' ? true : undefined,
  });
  return txn;
}

/**
 * Creates a standard transaction (spec 2.4) in `created`, with its quote expiring after the sandbox's quote TTL.
 * The caller has run the creation checks (user, KYC, bank, active transaction, partnerReference).
 */
export function createTransaction(
  state: MockState,
  account: AccountRecord,
  body: TransactionCreateRequest,
): TransactionRecord {
  const txn = store(state, account, body, 'standard', 'created', SANDBOX_TRANSACTIONS.quoteTtl);
  txn.timerIds.push(later(state, txn, TXN_TIMERS.quoteExpire, { at: Date.parse(txn.expiresAt) }));
  return txn;
}

/**
 * Creates a prefunded transaction (spec 2.5): holds its amount against the account's credit and starts the payout
 * at once. Returns the record as created; the payout leg moves the stored one on. The caller has run the creation
 * checks, including that the amount fits the available credit.
 */
export function createPrefundedTransaction(
  mock: ServiceInternals,
  account: AccountRecord,
  body: PrefundedTransactionCreateRequest,
): TransactionRecord {
  const { state } = mock;
  const outstanding = state.transactions.outstandingUsdByAccount[account.id] ?? '0';
  // The funding window runs from the payout (spec 8): `expiresAt` is its expected end here, and is set
  // exactly when the payout completes (`completePayout`).
  const txn = store(
    state,
    account,
    body,
    'prefunded',
    'payout_processing',
    `${PAYOUT_SETTLE_MS}ms${SANDBOX_TRANSACTIONS.fundingWindow}`,
  );
  txn.payout = {
    payoutId: nextId(state, 'pay'),
    rail: 'imps',
    amountInr: txn.quote.netInr,
    status: 'processing',
    initiatedAt: txn.createdAt,
    // Credit-funded, not from the INR pool: never attributed (2.4 rule 3).
    attributionStatus: 'none',
  };
  // Creating a prefunded transaction adds its amount to outstandingUsd (2.5).
  state.transactions.outstandingUsdByAccount[account.id] = holdCredit(outstanding, txn.amount);
  txn.creditHeld = true;
  startPayout(mock, txn);
  return txn;
}

/** The quote expiry a standard create schedules; a deposit seen first has moved the transaction on. */
export const quoteExpire = txnTask(TXN_TIMERS.quoteExpire, (mock, txn) =>
  moveIfAllowed(mock, txn, { type: 'quote.expire' }),
);
