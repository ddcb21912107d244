/** Standard and prefunded transactions (spec 2.4, 4.2). */
import {
  CreatedTransaction,
  PrefundedTransaction,
  PrefundedTransactionCreateRequest,
  Transaction,
  TransactionCreateRequest,
} from '../schemas/transactions.js';
import { endpoint } from './endpoint.js';

const CREATE = ['USER_NOT_FOUND', 'KYC_INCOMPLETE', 'NO_BANK_ACCOUNT', 'PENDING_TRANSACTION_EXISTS'];

/** The transactions endpoints, keyed by operation ID. */
export const TRANSACTION_ENDPOINTS = {
  'transactions.create': endpoint({
    method: 'POST',
    path: '/v2/transactions',
    summary: 'Create a standard transaction: a deposit address and a quote',
    section: '4.2',
    data: CreatedTransaction,
    status: 201,
    errors: [...CREATE, 'AMOUNT_TOO_LOW', 'AMOUNT_TOO_HIGH'],
    assumptions: ['Standard transaction create', 'Partner reference reuse'],
    body: TransactionCreateRequest,
    creates: { kind: 'transaction', field: 'transactionId' },
  }),
  'transactions.createPrefunded': endpoint({
    method: 'POST',
    path: '/v2/transactions/prefunded',
    summary: 'Create a prefunded transaction, paid out at once against the credit line',
    section: '4.2',
    data: PrefundedTransaction,
    status: 201,
    errors: [...CREATE, 'PREFUNDED_NOT_ALLOWED', 'CREDIT_LIMIT_EXCEEDED', 'PAYOUT_FAILED'],
    assumptions: ['Prefunded lifecycle (mock)'],
    body: PrefundedTransactionCreateRequest,
    creates: { kind: 'transaction', field: 'transactionId' },
  }),
  'transactions.retrieve': endpoint({
    method: 'GET',
    path: '/v2/transactions/{transactionId}',
    summary: 'A transaction, by its ID or the partner reference',
    section: '2.4',
    data: Transaction,
    errors: ['NOT_FOUND'],
    assumptions: ['Transaction read before the legs exist'],
  }),
};
