import { v4 as uuidv4 } from 'uuid';
import {
  APIConnectionError,
  InternalServerError,
  NotFoundError,
  ValidationError,
} from '../../core/errors.js';
import type { RequestOptions } from '../../core/types.js';
import type {
  CreatedTransaction,
  PrefundedTransaction,
  Transaction,
  TransactionCreateRequest,
} from '../../schemas/transactions.js';

/** The part of the transactions resource that recovery uses. */
export interface TransactionCreator {
  create(params: TransactionCreateRequest, options?: RequestOptions): PromiseLike<CreatedTransaction>;
  createPrefunded(
    params: TransactionCreateRequest,
    options?: RequestOptions,
  ): PromiseLike<PrefundedTransaction>;
  retrieve(idOrPartnerReference: string, options?: RequestOptions): PromiseLike<Transaction>;
}

/** Options of `transactions.createWithRecovery`. */
export interface CreateWithRecoveryOptions extends Omit<RequestOptions, 'idempotencyKey'> {
  /** Send `POST /v2/transactions/prefunded` instead of `POST /v2/transactions`. */
  prefunded?: boolean;
  /** Creates sent at most (each after a lookup found nothing). Default 3. */
  maxAttempts?: number;
  /** Carried by every create of this logical call. Default: a fresh UUID. */
  idempotencyKey?: string;
}

/** The create's answer, or, when it got none but the transaction exists, the transaction read by reference. */
export type CreateWithRecoveryResult =
  | { recovered: false; transactionId: string; created: CreatedTransaction | PrefundedTransaction }
  | { recovered: true; transactionId: string; transaction: Transaction };

// After these the create may or may not have taken effect.
function outcomeUnknown(error: unknown): boolean {
  return error instanceof APIConnectionError || error instanceof InternalServerError;
}

export async function createWithRecovery(
  resource: TransactionCreator,
  params: TransactionCreateRequest,
  options: CreateWithRecoveryOptions = {},
): Promise<CreateWithRecoveryResult> {
  const { prefunded = false, maxAttempts = 3, idempotencyKey = uuidv4(), ...requestOptions } = options;
  const reference = params?.partnerReference;
  if (typeof reference !== 'string' || reference === '') {
    throw new ValidationError('createWithRecovery', [
      {
        path: 'partnerReference',
        message: 'is required: it finds a create that got no answer before anything is resent',
      },
    ]);
  }
  let lastError: unknown;
  for (let attempt = 1; attempt <= Math.max(1, maxAttempts); attempt++) {
    try {
      const createOptions = { ...requestOptions, idempotencyKey };
      const created = await (prefunded
        ? resource.createPrefunded(params, createOptions)
        : resource.create(params, createOptions));
      return { recovered: false, transactionId: created.transactionId, created };
    } catch (error) {
      if (!outcomeUnknown(error)) throw error;
      lastError = error;
    }
    // The create may have taken effect: find it before sending anything again.
    try {
      const transaction = await resource.retrieve(reference, requestOptions);
      return { recovered: true, transactionId: transaction.transaction.id, transaction };
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  }
  throw lastError;
}
