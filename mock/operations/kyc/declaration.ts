/**
 * The declaration (spec 2.10, 3.3, 4.11): stored for the extended status; a PEP declaration rejects KYC at once
 * (the aggregate's `pep_declared`), otherwise the aggregate is not recomputed.
 */
import type { DeclarationRequest } from '../../../src/schemas/kyc/declaration.js';
import { nextId } from '../../engine/ids.js';
import type { ServiceInternals } from '../../engine/internals.js';
import { nowIso } from '../../engine/timers.js';
import type { DeclarationStep } from '../../state/kyc.js';
import type { UserRecord } from '../../state/users.js';
import { applyAggregate, kycRecord } from '../kyc.js';
import { recordStep } from '../transitions.js';

/** `POST /kyc/declaration`: stores the declaration; `isPep: true` rejects the user's KYC. */
export function submitDeclaration(
  mock: ServiceInternals,
  user: UserRecord,
  input: Pick<DeclarationRequest, 'occupation' | 'occupationOther' | 'incomeRange' | 'isPep' | 'pepDetails'>,
): DeclarationStep {
  const { state } = mock;
  const record = kycRecord(state, user.id);
  const { occupation, occupationOther, incomeRange, isPep, pepDetails } = input;
  const declaration: DeclarationStep = {
    declarationId: nextId(state, 'dec'),
    occupation,
    occupationOther,
    incomeRange,
    isPep,
    pepDetails,
    submittedAt: nowIso(state),
  };
  record.declaration = declaration;
  recordStep(mock, user.id, 'declaration', 'POST /kyc/declaration');
  if (isPep) {
    record.isPepRejected = true;
    applyAggregate(mock, user, record, { type: 'pep_declared' });
  }
  return declaration;
}
