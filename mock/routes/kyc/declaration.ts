/**
 * The declaration (spec 2.10, 3.3, 4.11). A PEP declaration rejects KYC at once: `success: false`,
 * `error: KYC Rejected` (422, shape B) with `declarationId`, `isPep`, `kycStatus: rejected`. Otherwise the
 * aggregate is not recomputed (3.3).
 */
import { ENDPOINTS } from '../../../src/endpoints/index.js';
import { MockApiError } from '../../engine/errors.js';
import { defineModule } from '../../engine/module.js';
import { route } from '../../engine/route.js';
import { submitDeclaration } from '../../operations/kyc/declaration.js';
import { PEP_REJECTION } from '../../operations/kyc.js';
import { requireUser } from '../shared.js';

const submit = route(ENDPOINTS['kyc.declaration.submit'], (ctx) => {
  const user = requireUser(ctx, ctx.params.userId);
  const { occupation, incomeRange, isPep } = ctx.body;
  const declaration = submitDeclaration(ctx.mock, user, ctx.body);
  if (isPep) {
    throw new MockApiError(
      422,
      {
        error: 'KYC Rejected',
        message: 'KYC is rejected automatically for a Politically Exposed Person',
        data: { declarationId: declaration.declarationId, isPep: true, kycStatus: 'rejected' },
      },
      undefined,
      PEP_REJECTION,
    );
  }
  const { declarationId, submittedAt } = declaration;
  return {
    data: { declarationId, occupation, incomeRange, isPep, submittedAt },
    message: 'Declaration submitted',
  };
});

/** The declaration route. */
export const declaration = defineModule({ name: 'kyc.declaration', routes: [submit] });
