/** Standard and prefunded transactions (spec 2.4, 4.2). */
import {
  CreatedTransaction,
  PrefundedTransaction,
  PrefundedTransactionCreateRequest,
  Transaction,
  TransactionCreateRequest,
} from '../schemas/transactions.js';
import { type Endpoint, type EndpointContract, errorCodes } from './endpoint.js';

const CREATE = ['USER_NOT_FOUND', 'KYC_INCOMPLETE', 'NO_BANK_ACCOUNT', 'PENDING_TRANSACTION_EXISTS'];

/** The transactions endpoints' calls, keyed by operation ID. */
export const TRANSACTION_ENDPOINTS = {
  'transactions.create': {
    method: 'POST',
    path: '/v2/transactions',
    data: CreatedTransaction,
    status: 201,
    body: TransactionCreateRequest,
  },
  'transactions.createPrefunded': {
    method: 'POST',
    path: '/v2/transactions/prefunded',
    data: PrefundedTransaction,
    status: 201,
    body: PrefundedTransactionCreateRequest,
  },
  'transactions.retrieve': {
    method: 'GET',
    path: '/v2/transactions/{transactionId}',
    data: Transaction,
  },
} as const satisfies Record<string, Endpoint>;

/** The transactions endpoints' contract, keyed as the calls are. */
export const TRANSACTION_CONTRACTS: Record<keyof typeof TRANSACTION_ENDPOINTS, EndpointContract> = {
  'transactions.create': {
    summary: 'Create a standard transaction: a deposit address and a quote',
    section: '4.2',
    errors: /* @__PURE__ */ errorCodes(CREATE, 'AMOUNT_TOO_LOW', 'AMOUNT_TOO_HIGH'),
    assumptions: ['Standard transaction create', 'Partner reference reuse'],
    creates: { kind: 'transaction', field: 'transactionId' },
  },
  'transactions.createPrefunded': {
    summary: 'Create a prefunded transaction, paid out at once against the credit line',
    section: '4.2',
    errors: /* @__PURE__ */ errorCodes(
      CREATE,
      'PREFUNDED_NOT_ALLOWED',
      'CREDIT_LIMIT_EXCEEDED',
      'PAYOUT_FAILED',
    ),
    assumptions: ['Prefunded lifecycle (mock)'],
    creates: { kind: 'transaction', field: 'transactionId' },
  },
  'transactions.retrieve': {
    summary: 'A transaction, by its ID or the partner reference',
    section: '2.4',
    errors: ['NOT_FOUND'],
    assumptions: ['Transaction read before the legs exist'],
  },
};
