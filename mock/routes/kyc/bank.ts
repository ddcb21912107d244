/**
 * Bank account verification by penny drop (spec 4.7), errors in shape B. The bank's holder name on record
 * is the `accountHolderName` sent (or the sandbox's other person), and it must score at least 70 against
 * the Aadhaar name. Sandbox accounts fail the penny drop or make the bank error (docs/sandbox-values.md).
 */
import { ENDPOINTS } from '../../../src/endpoints/index.js';
import { MockApiError } from '../../engine/errors.js';
import { defineModule } from '../../engine/module.js';
import { route } from '../../engine/route.js';
import { nameMatchScore, namesMatch } from '../../machines/name-match.js';
import { verifyBank } from '../../operations/kyc/bank.js';
import { expectedName, maskTail, peekKycRecord, takeOutcome } from '../../operations/kyc.js';
import { chosenOutcome, nameMismatch, SANDBOX_EXPLANATIONS } from '../../sandbox-explanations.js';
import { SANDBOX_KYC } from '../../sandbox-values.js';
import type { BankOutcome } from '../../state/kyc.js';
import { requireUser } from '../shared.js';

/** The outcome each sandbox account number stands for (docs/sandbox-values.md); for others the names decide. */
const SANDBOX_OUTCOMES = new Map<string, BankOutcome>([
  [SANDBOX_KYC.bank.providerError, 'bank_error'],
  [SANDBOX_KYC.bank.pennyDropFails, 'penny_drop_failed'],
  [SANDBOX_KYC.bank.otherHolder, 'name_mismatch'],
]);

const verify = route(ENDPOINTS['kyc.bank.verify'], (ctx) => {
  const user = requireUser(ctx, ctx.params.userId);
  const record = peekKycRecord(ctx.state, user.id);
  const { accountNumber, ifsc, accountHolderName } = ctx.body;
  const chosen = takeOutcome(ctx.state, user.id, 'bank');
  const outcome = chosen ?? SANDBOX_OUTCOMES.get(accountNumber);
  // A test's chosen outcome explains itself first; otherwise the sandbox account that decided.
  const why = chosen ? chosenOutcome('bank', chosen) : undefined;
  if (outcome === 'bank_error') {
    throw new MockApiError(
      500,
      {
        error: 'Internal Server Error',
        message: 'The bank did not answer the penny drop; try again later',
      },
      undefined,
      why ?? SANDBOX_EXPLANATIONS.bankProviderError,
    );
  }
  if (outcome === 'penny_drop_failed') {
    throw new MockApiError(
      422,
      {
        error: 'Verification Failed',
        message: `The penny drop to account ${maskTail(accountNumber)} at ${ifsc} failed: the account does not exist or cannot receive credits`,
      },
      undefined,
      why ?? SANDBOX_EXPLANATIONS.bankPennyDropFails,
    );
  }
  const expected = expectedName(user, record);
  const found =
    outcome === 'name_mismatch'
      ? SANDBOX_KYC.otherPersonName
      : outcome === 'verified'
        ? expected
        : accountHolderName;
  const matchScore = nameMatchScore(expected, found);
  if (!namesMatch(matchScore)) {
    const sandbox =
      outcome === 'name_mismatch' && !chosen
        ? { rule: 'sandbox.bank.otherHolder', value: SANDBOX_KYC.bank.otherHolder }
        : undefined;
    throw new MockApiError(
      422,
      {
        error: 'Name Mismatch',
        message: `The account holder name at the bank (${found}) does not match the Aadhaar name (${expected}): score ${matchScore}, at least 70 needed`,
        data: { expected, found, matchScore },
      },
      undefined,
      why ??
        nameMismatch({
          section: '4.7',
          field: sandbox ? 'accountNumber' : 'accountHolderName',
          found,
          expected,
          score: matchScore,
          sandbox,
        }),
    );
  }
  const verified = verifyBank(ctx.mock, user, { accountNumber, ifsc, accountHolderName: found }, why);
  return {
    explain: why,
    data: {
      verified: true,
      bankName: verified.bankName,
      branch: verified.branch,
      accountHolderName: verified.accountHolderName,
      maskedAccountNumber: verified.maskedAccountNumber,
      ifsc,
    },
    message: 'Bank account verified',
  };
});

/** The bank route. */
export const bank = defineModule({ name: 'kyc.bank', routes: [verify] });
