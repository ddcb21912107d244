/** PAN verification (assumed, docs/assumptions.md): the PAN found, with the name on it and its match score. */

import type { ServiceInternals } from '../../engine/internals.js';
import type { PanStep } from '../../state/kyc.js';
import type { UserRecord } from '../../state/users.js';
import { maskPan, verifyStep } from '../kyc.js';

/** `POST /kyc/pan/verify` once the PAN is found and its name matches: records the PAN. */
export function verifyPan(
  mock: ServiceInternals,
  user: UserRecord,
  found: { pan: string; nameOnPan: string; nameMatchScore: number },
): PanStep {
  const { pan, nameOnPan, nameMatchScore } = found;
  const step = { number: pan, maskedNumber: maskPan(pan), nameOnPan, nameMatchScore };
  return verifyStep(mock, user, 'pan', step, 'POST /kyc/pan/verify');
}
