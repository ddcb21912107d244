/**
 * UPI verification (spec 4.8), shape A errors. Three `success: true` outcomes: a score of 70 or more
 * verifies; under 70 answers `verified: false`; an invalid VPA answers `verified: false` with explicit nulls.
 * `VALIDATION_ERROR` 400 (schema), `ALREADY_VERIFIED` 409, `VERIFICATION_FAILED` 500 (sandbox provider error).
 */
import { ENDPOINTS } from '../../../src/endpoints/index.js';
import { MockApiError } from '../../engine/errors.js';
import { defineModule } from '../../engine/module.js';
import { route } from '../../engine/route.js';
import { nameMatchScore, namesMatch } from '../../machines/name-match.js';
import { verifyUpi } from '../../operations/kyc/upi.js';
import { expectedName, peekKycRecord, takeOutcome } from '../../operations/kyc.js';
import { chosenOutcome, nameMismatch, SANDBOX_EXPLANATIONS } from '../../sandbox-explanations.js';
import { SANDBOX_KYC } from '../../sandbox-values.js';
import type { UpiOutcome } from '../../state/kyc.js';
import { requireUser } from '../shared.js';

const HANDLES: Record<string, string> = {
  okhdfcbank: 'HDFC Bank',
  hdfcbank: 'HDFC Bank',
  oksbi: 'State Bank of India',
  sbi: 'State Bank of India',
  okicici: 'ICICI Bank',
  icici: 'ICICI Bank',
  okaxis: 'Axis Bank',
  axl: 'Axis Bank',
  ybl: 'Yes Bank',
  paytm: 'Paytm Payments Bank',
};

/** The outcome each sandbox UPI ID stands for (docs/sandbox-values.md); for others the names decide. */
const SANDBOX_OUTCOMES = new Map<string, UpiOutcome>([
  [SANDBOX_KYC.upi.providerError, 'provider_error'],
  [SANDBOX_KYC.upi.invalidVpa, 'invalid_vpa'],
  [SANDBOX_KYC.upi.otherHolder, 'name_mismatch'],
]);

const verify = route(ENDPOINTS['kyc.upi.verify'], (ctx) => {
  const user = requireUser(ctx, ctx.params.userId);
  const record = peekKycRecord(ctx.state, user.id);
  const upiId = ctx.body.upiId.toLowerCase();
  if (record.upi) {
    throw new MockApiError(409, {
      error: 'Conflict',
      message: `User ${user.id} already has a verified UPI ID`,
      code: 'ALREADY_VERIFIED',
    });
  }
  const chosen = takeOutcome(ctx.state, user.id, 'upi');
  const outcome = chosen ?? SANDBOX_OUTCOMES.get(upiId);
  // A test's chosen outcome explains itself first; otherwise the sandbox UPI ID that decided.
  const why = chosen ? chosenOutcome('upi', chosen) : undefined;
  if (outcome === 'provider_error') {
    throw new MockApiError(
      500,
      {
        error: 'Internal Server Error',
        message: 'The UPI verification service failed; try again later',
        code: 'VERIFICATION_FAILED',
      },
      undefined,
      why ?? SANDBOX_EXPLANATIONS.upiProviderError,
    );
  }
  if (outcome === 'invalid_vpa') {
    return {
      explain: why ?? SANDBOX_EXPLANATIONS.upiInvalidVpa,
      data: {
        verified: false,
        name: null,
        bankName: null,
        nameMatchScore: null,
        message: 'Invalid VPA: no account has this UPI ID',
      },
    };
  }
  const handle = upiId.slice(upiId.indexOf('@') + 1);
  const bankName = HANDLES[handle] ?? null;
  const expected = expectedName(user, record);
  const name = (outcome === 'name_mismatch' ? SANDBOX_KYC.otherPersonName : expected).toUpperCase();
  const score = nameMatchScore(expected, name);
  if (!namesMatch(score)) {
    const sandbox = chosen
      ? undefined
      : { rule: 'sandbox.upi.otherHolder', value: SANDBOX_KYC.upi.otherHolder };
    return {
      explain: why ?? nameMismatch({ section: '4.8', field: 'upiId', found: name, expected, score, sandbox }),
      data: {
        verified: false,
        name,
        bankName,
        nameMatchScore: score,
        message: `The UPI account holder (${name}) does not match the Aadhaar name (${expected}): score ${score}, at least 70 needed`,
      },
    };
  }
  verifyUpi(ctx.mock, user, { upiId, name, nameMatchScore: score }, why);
  return {
    explain: why,
    data: { verified: true, name, bankName, nameMatchScore: score, message: 'UPI ID verified' },
  };
});

/** The UPI route. */
export const upi = defineModule({ name: 'kyc.upi', routes: [verify] });
