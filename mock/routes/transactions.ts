/**
 * `POST /v2/transactions`, `POST /v2/transactions/prefunded` and `GET /v2/transactions/{transactionId}`
 * (spec 2.4, 2.5, 3.1, 4.2, 7.3, 7.4). The creation checks run here; the create itself is
 * `operations/create-transaction.ts` and the lifecycle `operations/transactions.ts`.
 */
import { ENDPOINTS } from '../../src/endpoints/index.js';
import type { CreatedTransaction, TransactionCreateRequest } from '../../src/schemas/transactions.js';
import { MockApiError } from '../engine/errors.js';
import { defineModule } from '../engine/module.js';
import { type RouteContext, route } from '../engine/route.js';
import { transactionAt } from '../machines/confirmations.js';
import { fitsAvailable } from '../machines/prefunded.js';
import { readEligibility } from '../machines/transaction-eligibility.js';
import { accountCredit } from '../operations/accounts.js';
import { createPrefundedTransaction, createTransaction } from '../operations/create-transaction.js';
import { transactionTasks } from '../operations/transaction-tasks.js';
import { transactionData } from '../operations/transactions.js';
import { referenceKey, type TransactionRecord } from '../state/transactions.js';
import { requireUser } from './shared.js';

type CreateBody = TransactionCreateRequest;

/** The wire form of a create answer (spec 4.2; standard shape assumed). */
function createdData(txn: TransactionRecord): CreatedTransaction {
  return {
    transactionId: txn.id,
    status: txn.status,
    partnerReference: txn.partnerReference,
    depositAddress: txn.depositAddress,
    depositNetwork: txn.network,
    depositAsset: txn.asset,
    expectedAmount: txn.amount,
    quote: { ...txn.quote, exchangeRate: Number(txn.quote.exchangeRate) },
    expiresAt: txn.expiresAt,
  };
}

function refuse(status: number, error: string, code: string, message: string): MockApiError {
  return new MockApiError(status, { error, message, code });
}

/** The creation checks both kinds share (7.3, 7.4), in the order a partner would fix them. */
function checkUser(ctx: RouteContext<unknown, CreateBody>): void {
  const user = requireUser(ctx, ctx.body.userId);
  const eligibility = readEligibility(ctx.state, user.id);
  if (!eligibility.kycVerified)
    throw refuse(
      422,
      'Unprocessable Entity',
      'KYC_INCOMPLETE',
      `User ${user.id} has not completed KYC (status ${eligibility.kycStatus}); finish KYC and refresh it before transacting`,
    );
  if (!eligibility.bank)
    throw refuse(
      422,
      'Unprocessable Entity',
      'NO_BANK_ACCOUNT',
      `User ${user.id} has no verified bank account; verify one with POST /v2/users/${user.id}/kyc/bank/verify`,
    );
  const active = ctx.state.transactions.activeByUser[user.id];
  if (active)
    throw refuse(
      409,
      'Conflict',
      'PENDING_TRANSACTION_EXISTS',
      `User ${user.id} already has an active transaction ${active}; wait for it to finish or expire`,
    );
  const reference = ctx.body.partnerReference;
  if (reference && ctx.state.transactions.idByPartnerReference[referenceKey(ctx.account.id, reference)])
    throw refuse(
      409,
      'Conflict',
      'PARTNER_REFERENCE_EXISTS',
      `partnerReference ${reference} is already used; read that transaction with GET /v2/transactions/${reference}`,
    );
}

const postTransaction = route(ENDPOINTS['transactions.create'], (ctx) => {
  checkUser(ctx);
  const txn = createTransaction(ctx.state, ctx.account, ctx.body);
  return { data: createdData(txn), message: 'Transaction created' };
});

const postPrefunded = route(ENDPOINTS['transactions.createPrefunded'], (ctx) => {
  const { account, state, body } = ctx;
  if (!account.prefunded.approved)
    throw refuse(
      403,
      'Forbidden',
      'PREFUNDED_NOT_ALLOWED',
      'Prefunded transactions are not enabled for this account; ask the service to approve it and set a credit limit',
    );
  checkUser(ctx);
  const credit = accountCredit(state, account);
  if (!fitsAvailable(credit, body.amount))
    throw refuse(
      422,
      'Unprocessable Entity',
      'CREDIT_LIMIT_EXCEEDED',
      `The amount ${body.amount} USD is above the available credit of ${credit.availableUsd} USD (limit ${credit.creditLimitUsd}, outstanding ${credit.outstandingUsd}); wait for outstanding deposits or lower the amount`,
    );
  const txn = createPrefundedTransaction(ctx.mock, account, body);
  const { status: _status, ...data } = createdData(txn);
  return {
    data: { ...data, status: txn.status },
    message: 'Prefunded transaction created; payout started',
  };
});

const getTransaction = route(ENDPOINTS['transactions.retrieve'], ({ params, state, account }) => {
  const { transactions } = state;
  const byId = transactions.byId[params.transactionId];
  const id =
    byId?.accountId === account.id
      ? byId.id
      : transactions.idByPartnerReference[referenceKey(account.id, params.transactionId)];
  const txn = id ? transactions.byId[id] : undefined;
  if (!txn)
    throw refuse(
      404,
      'Not Found',
      'TRANSACTION_NOT_FOUND',
      `No transaction with ID or partnerReference ${params.transactionId} on this account`,
    );
  return { data: transactionData(transactionAt(txn, state.clock.now)) };
});

/** The transaction routes and the money flow's tasks. */
export const transactions = defineModule({
  name: 'transactions',
  routes: [postTransaction, postPrefunded, getTransaction],
  tasks: transactionTasks,
});
