import type { ApiPromise } from '../../core/api-promise.js';
import type { Transport } from '../../core/transport.js';
import type { RequestOptions } from '../../core/types.js';
import type { PassportVerification, PassportVerifyRequest } from '../../schemas/kyc/passport.js';
import { callForUser } from '../shared.js';

/**
 * Passport verification (spec 4.6): a base64 PDF or photo; when verified, the KYC status updates by itself.
 * @example
 * ```ts
 * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
 * const pdf = Buffer.from('%PDF-1.7 passport scan');
 * const { verified, givenName } = await client.kyc.passport.verify(userId, { file: pdf.toString('base64'), fileName: 'passport.pdf' });
 * ```
 */
export class PassportResource {
  constructor(private readonly transport: Transport) {}

  /** `POST /v2/users/{userId}/kyc/passport/verify`: `Verification Failed` (422) when nothing could be read. */
  verify(
    userId: string,
    params: PassportVerifyRequest,
    options?: RequestOptions,
  ): ApiPromise<PassportVerification> {
    return callForUser(this.transport, 'kyc.passport.verify', userId, params, options);
  }
}
