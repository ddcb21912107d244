/**
 * PAN verification (assumed, docs/assumptions.md). Shape A: `PAN_INVALID` 400 for a malformed PAN (checked
 * here, not by the schema, so the answer carries the spec's identifier), `PAN_NOT_FOUND` 404,
 * `NAME_MISMATCH` 422 with `matchScore` against the Aadhaar name, `ALREADY_VERIFIED` 409.
 */
import * as z from 'zod/mini';
import { ENDPOINTS } from '../../../src/endpoints/index.js';
import { DeviceId } from '../../../src/schemas/common.js';
import { PAN_PATTERN } from '../../../src/schemas/kyc/pan.js';
import { MockApiError } from '../../engine/errors.js';
import { defineModule } from '../../engine/module.js';
import { route } from '../../engine/route.js';
import { nameMatchScore, namesMatch } from '../../machines/name-match.js';
import { verifyPan } from '../../operations/kyc/pan.js';
import { expectedName, maskPan, peekKycRecord } from '../../operations/kyc.js';
import { nameMismatch, SANDBOX_EXPLANATIONS } from '../../sandbox-explanations.js';
import { SANDBOX_KYC } from '../../sandbox-values.js';
import { alreadyVerified, requireUser } from '../shared.js';

/** The shared schema minus the PAN format, which answers `PAN_INVALID` instead of `VALIDATION_ERROR`. */
const PanBody = z.object({ pan: z.string({ error: 'pan is required' }), deviceId: z.optional(DeviceId) });

const verify = route(
  ENDPOINTS['kyc.pan.verify'],
  (ctx) => {
    const user = requireUser(ctx, ctx.params.userId);
    const record = peekKycRecord(ctx.state, user.id);
    const pan = ctx.body.pan.toUpperCase();
    if (!PAN_PATTERN.test(pan)) {
      throw new MockApiError(400, {
        error: 'Bad Request',
        message: `Invalid PAN format "${ctx.body.pan}": a PAN is 5 letters, 4 digits, 1 letter (ABCDE1234F)`,
        code: 'PAN_INVALID',
      });
    }
    if (record.pan) throw alreadyVerified('PAN', user.id);
    if (pan === SANDBOX_KYC.pan.notFound) {
      throw new MockApiError(
        404,
        {
          error: 'Not Found',
          message: `PAN ${maskPan(pan)} is not in the income-tax database; check the number with the user`,
          code: 'PAN_NOT_FOUND',
        },
        undefined,
        SANDBOX_EXPLANATIONS.panNotFound,
      );
    }
    const expected = expectedName(user, record);
    const nameOnPan =
      pan === SANDBOX_KYC.pan.otherHolder ? SANDBOX_KYC.otherPersonName : expected.toUpperCase();
    const score = nameMatchScore(expected, nameOnPan);
    if (!namesMatch(score)) {
      const sandbox =
        pan === SANDBOX_KYC.pan.otherHolder ? { rule: 'sandbox.pan.otherHolder', value: pan } : undefined;
      throw new MockApiError(
        422,
        {
          error: 'Unprocessable Entity',
          message: `The name on the PAN (${nameOnPan}) does not match the Aadhaar name (${expected}): score ${score}, at least 70 needed`,
          code: 'NAME_MISMATCH',
          matchScore: score,
        },
        undefined,
        nameMismatch({ section: '7.3', field: 'PAN', found: nameOnPan, expected, score, sandbox }),
      );
    }
    const { number: _number, ...data } = verifyPan(ctx.mock, user, {
      pan,
      nameOnPan,
      nameMatchScore: score,
    });
    return { data: { verified: true, ...data }, message: 'PAN verified' };
  },
  { bodySchema: PanBody },
);

/** The PAN route. */
export const pan = defineModule({ name: 'kyc.pan', routes: [verify] });
