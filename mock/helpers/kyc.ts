/**
 * KYC test helpers (Stripe test-helper style), plain data in and out: complete or fail a document-locker
 * or face session (kyc-digilocker.ts, kyc-face.ts), choose the next bank or UPI outcome, read the Aadhaar
 * OTP that was "sent", and upload to a presigned URL without HTTP. A transition that does not fit the
 * current state throws `MockTransitionError`.
 */
import { MockHelperError } from '../engine/errors.js';
import type { ServiceInternals } from '../engine/internals.js';
import { chooseOutcome, peekKycRecord } from '../operations/kyc.js';
import { storeUpload } from '../operations/storage.js';
import type { BankOutcome, UpiOutcome } from '../state/kyc.js';
import { digilockerHelpers } from './kyc-digilocker.js';
import { faceHelpers } from './kyc-face.js';
import { refuse, userOf } from './lookup.js';

function kycStepHelpers(mock: ServiceInternals) {
  return {
    /**
     * The Aadhaar OTP "sent" for a `referenceId`.
     * @example
     * ```ts
     * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao', email: 'asha@example.com' });
     * const { referenceId } = await client.kyc.aadhaar.sendOtp(userId, { aadhaarNumber: '123412341234' });
     * const { otp } = mock.helpers.kyc.aadhaarOtp({ referenceId });
     * ```
     */
    aadhaarOtp({ referenceId }: { referenceId: string }): {
      otp: string;
      expiresAt: string;
      attempts: number;
    } {
      const session = mock.state.kyc.aadhaarOtps[referenceId];
      if (!session) throw new MockHelperError(`No Aadhaar OTP session ${referenceId} in this mock`);
      return { otp: session.code, expiresAt: session.expiresAt, attempts: session.attempts };
    },
    /**
     * Chooses the outcome of the user's next bank or UPI verification, whatever the account or UPI ID sent
     * (`verified` passes the name match too). Refused when that step is already verified for UPI, which
     * answers `ALREADY_VERIFIED` before any outcome.
     * @example
     * ```ts
     * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao', email: 'asha@example.com' });
     * mock.helpers.kyc.chooseOutcome({ userId, step: 'bank', outcome: 'penny_drop_failed' });
     * ```
     */
    chooseOutcome(
      input: { userId: string } & (
        | { step: 'bank'; outcome: BankOutcome }
        | { step: 'upi'; outcome: UpiOutcome }
      ),
    ): { userId: string; step: string; outcome: string } {
      // The contract has refused an outcome the step does not have.
      const user = userOf(mock, input.userId);
      if (input.step === 'upi' && peekKycRecord(mock.state, user.id).upi) {
        refuse(
          `the UPI verification of ${user.id}`,
          `choose outcome ${input.outcome} for`,
          'verified',
          ['unverified'],
          'A verified UPI ID answers ALREADY_VERIFIED.',
          '4.8',
        );
      }
      chooseOutcome(mock.state, user.id, input);
      return { userId: user.id, step: input.step, outcome: input.outcome };
    },
    /**
     * Uploads to a presigned URL without HTTP, with the same checks the storage applies (PUT, signed
     * `Content-Type`, declared size, 300 s life); throws with the storage's reason when refused.
     * @example
     * ```ts
     * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao', email: 'asha@example.com' });
     * const { s3Key } = await client.kyc.document.createUploadUrl(userId, { documentType: 'passport', fileName: 'p.pdf', mimeType: 'application/pdf', fileSize: 2048, deviceId: 'd1' });
     * mock.helpers.kyc.upload({ s3Key, contentType: 'application/pdf', size: 2048 });
     * ```
     */
    upload({ s3Key, contentType, size }: { s3Key: string; contentType: string; size: number }): {
      s3Key: string;
    } {
      const result = storeUpload(mock, s3Key, { method: 'PUT', contentType, size });
      if (!result.ok) throw new MockHelperError(`Upload refused (${result.status}): ${result.reason}`);
      return { s3Key };
    },
  };
}

/** Every KYC helper group, spread into `service.helpers`. */
export function kycHelpers(mock: ServiceInternals) {
  return { digilocker: digilockerHelpers(mock), face: faceHelpers(mock), kyc: kycStepHelpers(mock) };
}
