/**
 * Passport verification (spec 4.6), shape B errors: `Bad Request` 400 when the file is missing or not a
 * PDF, JPEG, PNG or WebP in base64; `Verification Failed` 422 for an unreadable file (sandbox marker);
 * `Already Verified` 409. The identity read is the user's name on record.
 */
import * as z from 'zod/mini';
import { ENDPOINTS } from '../../../src/endpoints/index.js';
import { MockApiError } from '../../engine/errors.js';
import { defineModule } from '../../engine/module.js';
import { route } from '../../engine/route.js';
import { verifyPassport } from '../../operations/kyc/passport.js';
import { peekKycRecord } from '../../operations/kyc.js';
import { SANDBOX_EXPLANATIONS } from '../../sandbox-explanations.js';
import { SANDBOX_KYC } from '../../sandbox-values.js';
import { requireUser } from '../shared.js';

/** Loose on purpose: a missing or malformed file answers `Bad Request` (7.4), not `Validation Error`. */
const PassportBody = z.looseObject({ file: z.optional(z.unknown()), fileName: z.optional(z.unknown()) });

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function isPassportFile(bytes: Buffer): boolean {
  const head = bytes.subarray(0, 12);
  return (
    head.subarray(0, 4).toString('latin1') === '%PDF' ||
    (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) ||
    head.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47])) ||
    (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP')
  );
}

const verify = route(
  ENDPOINTS['kyc.passport.verify'],
  (ctx) => {
    const user = requireUser(ctx, ctx.params.userId);
    const record = peekKycRecord(ctx.state, user.id);
    const file = ctx.body.file;
    if (typeof file !== 'string' || !BASE64.test(file) || !isPassportFile(Buffer.from(file, 'base64'))) {
      throw new MockApiError(400, {
        error: 'Bad Request',
        message: 'file is missing or not a base64-encoded passport PDF, JPEG, PNG or WebP',
      });
    }
    if (record.passport) {
      throw new MockApiError(409, {
        error: 'Already Verified',
        message: `The passport of user ${user.id} is already verified`,
      });
    }
    if (Buffer.from(file, 'base64').toString('latin1').includes(SANDBOX_KYC.unreadablePassportMarker)) {
      throw new MockApiError(
        422,
        {
          error: 'Verification Failed',
          message: 'The passport data could not be extracted: send a sharper scan or photo of the data page',
        },
        undefined,
        SANDBOX_EXPLANATIONS.passportUnreadable,
      );
    }
    const passport = verifyPassport(ctx.mock, user);
    const { verifiedAt: _at, ...data } = passport;
    return { data: { verified: true, ...data }, message: 'Passport verified' };
  },
  { bodySchema: PassportBody },
);

/** The passport route. */
export const passport = defineModule({ name: 'kyc.passport', routes: [verify] });
