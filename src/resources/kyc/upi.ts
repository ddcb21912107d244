import type { ApiPromise } from '../../core/api-promise.js';
import type { Transport } from '../../core/transport.js';
import type { RequestOptions } from '../../core/types.js';
import type { UpiVerification, UpiVerifyRequest } from '../../schemas/kyc/upi.js';
import { callForUser } from '../shared.js';

/**
 * UPI verification (spec 4.8, optional).
 * @example
 * ```ts
 * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
 * const result = await client.kyc.upi.verify(userId, { upiId: 'asha@okhdfcbank' });
 * ```
 */
export class UpiResource {
  constructor(private readonly transport: Transport) {}

  /**
   * `POST /v2/users/{userId}/kyc/upi/verify`: verified, name mismatch and invalid VPA are all successful
   * answers; `upiOutcome(result)` names them.
   */
  verify(userId: string, params: UpiVerifyRequest, options?: RequestOptions): ApiPromise<UpiVerification> {
    return callForUser(this.transport, 'kyc.upi.verify', userId, params, options);
  }
}
