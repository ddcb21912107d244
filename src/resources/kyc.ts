import type { ApiPromise } from '../core/api-promise.js';
import type { Transport } from '../core/transport.js';
import type { RequestOptions } from '../core/types.js';
import type { ExtendedStatus, KycRefresh, KycStatus } from '../schemas/kyc/status.js';
import { AadhaarResource } from './kyc/aadhaar.js';
import { BankResource } from './kyc/bank.js';
import { DeclarationResource } from './kyc/declaration.js';
import { DigilockerResource } from './kyc/digilocker.js';
import { DocumentResource } from './kyc/document.js';
import { FaceResource } from './kyc/face.js';
import { PanResource } from './kyc/pan.js';
import { PassportResource } from './kyc/passport.js';
import { ProfileResource } from './kyc/profile.js';
import { UpiResource } from './kyc/upi.js';
import { callEndpoint } from './shared.js';

/**
 * A user's KYC (spec 2.7, 2.8, 4.4-4.11): the status record, refresh, the extended status, one sub-resource a step.
 * @example
 * ```ts
 * import { kycRequirements } from 'inr-payouts';
 * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
 * const status = await client.kyc.status(userId);
 * const { complete, missing } = kycRequirements(status, { indian: true });
 * if (complete && status.status === 'in_progress') await client.kyc.refresh(userId);
 * ```
 */
export class KycResource {
  readonly digilocker: DigilockerResource;
  readonly aadhaar: AadhaarResource;
  readonly pan: PanResource;
  readonly passport: PassportResource;
  readonly bank: BankResource;
  readonly upi: UpiResource;
  readonly face: FaceResource;
  readonly document: DocumentResource;
  readonly declaration: DeclarationResource;
  readonly profile: ProfileResource;

  constructor(
    private readonly transport: Transport,
    fetchImpl?: typeof fetch,
  ) {
    this.digilocker = new DigilockerResource(transport);
    this.aadhaar = new AadhaarResource(transport);
    this.pan = new PanResource(transport);
    this.passport = new PassportResource(transport);
    this.bank = new BankResource(transport);
    this.upi = new UpiResource(transport);
    this.face = new FaceResource(transport);
    this.document = new DocumentResource(transport, fetchImpl);
    this.declaration = new DeclarationResource(transport);
    this.profile = new ProfileResource(transport);
  }

  /** `GET /v2/users/{userId}/kyc/status` (spec 2.7); read it with `isVerified`, `kycRequirements` (class example). */
  status(userId: string, options?: RequestOptions): ApiPromise<KycStatus> {
    return callEndpoint(this.transport, 'kyc.status', { params: { userId } }, options);
  }

  /**
   * `POST /v2/users/{userId}/kyc/refresh`: recomputes the aggregate status, `in_progress` until then.
   * @example
   * ```ts
   * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
   * const { previous, current } = await client.kyc.refresh(userId);
   * ```
   */
  refresh(userId: string, options?: RequestOptions): ApiPromise<KycRefresh> {
    return callEndpoint(this.transport, 'kyc.refresh', { params: { userId } }, options);
  }

  /**
   * `GET /v2/users/{userId}/kyc/extended-status`: profile, document and declaration (spec 2.8).
   * @example
   * ```ts
   * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
   * const { complete, missing, isPepRejected } = await client.kyc.extendedStatus(userId);
   * ```
   */
  extendedStatus(userId: string, options?: RequestOptions): ApiPromise<ExtendedStatus> {
    return callEndpoint(this.transport, 'kyc.extendedStatus', { params: { userId } }, options);
  }
}
