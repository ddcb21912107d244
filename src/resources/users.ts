import type { ApiPromise } from '../core/api-promise.js';
import type { Transport } from '../core/transport.js';
import type { RequestOptions } from '../core/types.js';
import type { User, UserCreateRequest } from '../schemas/users.js';
import { callEndpoint } from './shared.js';
import { EmailVerificationResource } from './verification/email.js';
import { MobileVerificationResource } from './verification/mobile.js';

/**
 * Users (assumed `POST /v2/users`, docs/assumptions.md) and their mobile and email OTP verification.
 * @example
 * ```ts
 * const { userId } = await client.users.create({ mobile: '+919876543210', email: 'asha@example.com' });
 * await client.users.mobile.sendOtp(userId);
 * ```
 */
export class UsersResource {
  readonly mobile: MobileVerificationResource;
  readonly email: EmailVerificationResource;

  constructor(private readonly transport: Transport) {
    this.mobile = new MobileVerificationResource(transport);
    this.email = new EmailVerificationResource(transport);
  }

  /** `POST /v2/users` (assumed): a registered mobile throws `ConflictError` (`USER_EXISTS`); see the class. */
  create(params: UserCreateRequest, options?: RequestOptions): ApiPromise<User> {
    return callEndpoint(this.transport, 'users.create', { body: params }, options);
  }
}
