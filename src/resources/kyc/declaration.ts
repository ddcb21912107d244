import type { ApiPromise } from '../../core/api-promise.js';
import type { Transport } from '../../core/transport.js';
import type { RequestOptions } from '../../core/types.js';
import {
  DeclarationRejected as DeclarationRejectedSchema,
  type DeclarationRequest,
  type DeclarationResult,
} from '../../schemas/kyc/declaration.js';
import { callForUser, recoverAs } from '../shared.js';

/**
 * The declaration (spec 4.11): occupation, income range, PEP status. Declaring PEP rejects KYC at once.
 * @example
 * ```ts
 * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
 * const result = await client.kyc.declaration.submit(userId, { occupation: 'salaried', incomeRange: '10l_to_25l', isPep: false, declarationAccepted: true });
 * ```
 */
export class DeclarationResource {
  constructor(private readonly transport: Transport) {}

  /**
   * `POST /v2/users/{userId}/kyc/declaration`: the record, or for `isPep: true` the rejection, returned rather than
   * thrown (tell them apart with `isDeclarationRejected`). Call `kyc.refresh` afterwards.
   * @example
   * ```ts
   * import { isDeclarationRejected } from 'inr-payouts';
   * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
   * const result = await client.kyc.declaration.submit(userId, { occupation: 'other', occupationOther: 'Artist', incomeRange: 'below_5l', isPep: false, declarationAccepted: true });
   * if (isDeclarationRejected(result)) console.log('KYC rejected');
   * ```
   */
  submit(
    userId: string,
    params: DeclarationRequest,
    options?: RequestOptions,
  ): ApiPromise<DeclarationResult> {
    // The rejection is sent as `success: false` (`KYC Rejected`).
    return recoverAs(
      callForUser(this.transport, 'kyc.declaration.submit', userId, params, options),
      DeclarationRejectedSchema,
    );
  }
}
