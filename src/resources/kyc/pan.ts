import type { ApiPromise } from '../../core/api-promise.js';
import type { Transport } from '../../core/transport.js';
import type { RequestOptions } from '../../core/types.js';
import type { PanVerification, PanVerifyRequest } from '../../schemas/kyc/pan.js';
import { callForUser } from '../shared.js';

/**
 * PAN verification (assumed endpoint, docs/assumptions.md; fields from spec 2.7).
 * @example
 * ```ts
 * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
 * const { verified, nameMatchScore } = await client.kyc.pan.verify(userId, { pan: 'ABCDE1234F' });
 * ```
 */
export class PanResource {
  constructor(private readonly transport: Transport) {}

  /**
   * `POST /v2/users/{userId}/kyc/pan/verify`: matches the PAN's name to the Aadhaar name; throws `PAN_INVALID`,
   * `PAN_NOT_FOUND` or `NAME_MISMATCH` (with `matchScore`).
   */
  verify(userId: string, params: PanVerifyRequest, options?: RequestOptions): ApiPromise<PanVerification> {
    return callForUser(this.transport, 'kyc.pan.verify', userId, params, options);
  }
}
