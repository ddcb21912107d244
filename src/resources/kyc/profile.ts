import type { ApiPromise } from '../../core/api-promise.js';
import type { Transport } from '../../core/transport.js';
import type { RequestOptions } from '../../core/types.js';
import type { Profile, ProfileSubmitRequest } from '../../schemas/kyc/profile.js';
import { callForUser } from '../shared.js';

/**
 * Extended profile submission (assumed endpoint, docs/assumptions.md; fields from spec 2.8).
 * @example
 * ```ts
 * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
 * const { profileId } = await client.kyc.profile.submit(userId, { dateOfBirth: '1990-01-01', nationality: 'IN', city: 'Bengaluru' });
 * ```
 */
export class ProfileResource {
  constructor(private readonly transport: Transport) {}

  /** `POST /v2/users/{userId}/kyc/profile` (assumed). */
  submit(userId: string, params: ProfileSubmitRequest, options?: RequestOptions): ApiPromise<Profile> {
    return callForUser(this.transport, 'kyc.profile.submit', userId, params, options);
  }
}
