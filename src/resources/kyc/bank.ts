import type { ApiPromise } from '../../core/api-promise.js';
import type { Transport } from '../../core/transport.js';
import type { RequestOptions } from '../../core/types.js';
import type { BankVerification, BankVerifyRequest } from '../../schemas/kyc/bank.js';
import { callForUser } from '../shared.js';

/**
 * Bank account verification by a 1-rupee penny drop (spec 4.7); required for KYC completion.
 * @example
 * ```ts
 * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
 * const bank = await client.kyc.bank.verify(userId, { accountNumber: '123456789012', ifsc: 'HDFC0001234', accountHolderName: 'Asha Rao' });
 * ```
 */
export class BankResource {
  constructor(private readonly transport: Transport) {}

  /**
   * `POST /v2/users/{userId}/kyc/bank/verify`: a holder's name under 70% like the Aadhaar name throws
   * `NAME_MISMATCH`; read it with `bankNameMismatch(error)`.
   */
  verify(userId: string, params: BankVerifyRequest, options?: RequestOptions): ApiPromise<BankVerification> {
    return callForUser(this.transport, 'kyc.bank.verify', userId, params, options);
  }
}
