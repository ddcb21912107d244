/**
 * Bank account verification by penny drop (spec 4.7), errors in shape B. The bank's holder name on record
 * is the `accountHolderName` sent (or the sandbox's other person), and it must score at least 70 against
 * the Aadhaar name. Sandbox accounts fail the penny drop or make the bank error (docs/sandbox-values.md).
 */
import { BankVerifyRequest } from '../../../src/schemas/kyc/bank.js';
import { MockApiError } from '../../engine/errors.js';
import { defineModule } from '../../engine/module.js';
import { route } from '../../engine/route.js';
import { nameMatchScore, namesMatch } from '../../machines/name-match.js';
import { applyAggregate, expectedName, kycRecord, maskTail, takeOutcome } from '../../operations/kyc.js';
import { recordStep } from '../../operations/transitions.js';
import { chosenOutcome, nameMismatch, SANDBOX_EXPLANATIONS } from '../../sandbox-explanations.js';
import { SANDBOX_KYC } from '../../sandbox-values.js';
import type { BankOutcome } from '../../state/kyc.js';
import { requireUser } from '../shared.js';

const BANKS: Record<string, string> = {
  HDFC: 'HDFC Bank',
  SBIN: 'State Bank of India',
  ICIC: 'ICICI Bank',
  UTIB: 'Axis Bank',
  KKBK: 'Kotak Mahindra Bank',
  PUNB: 'Punjab National Bank',
  YESB: 'Yes Bank',
};

/**
 * The bank an IFSC belongs to (its first four letters).
 * @example
 * bankNameOf('HDFC0001234'); // 'HDFC Bank'
 */
export function bankNameOf(ifsc: string): string {
  const code = ifsc.slice(0, 4);
  return BANKS[code] ?? `${code} Bank`;
}

/** The outcome a sandbox account number stands for (docs/sandbox-values.md); undefined: the names decide. */
function sandboxOutcome(accountNumber: string): BankOutcome | undefined {
  const { bank } = SANDBOX_KYC;
  if (accountNumber === bank.providerError) return 'bank_error';
  if (accountNumber === bank.pennyDropFails) return 'penny_drop_failed';
  if (accountNumber === bank.otherHolder) return 'name_mismatch';
  return undefined;
}

const verify = route(
  'POST',
  '/v2/users/:userId/kyc/bank/verify',
  (ctx) => {
    const user = requireUser(ctx, ctx.params.userId);
    const record = kycRecord(ctx.state, user.id);
    const { accountNumber, ifsc, accountHolderName } = ctx.body;
    const chosen = takeOutcome(ctx.state, user.id, 'bank');
    const outcome = chosen ?? sandboxOutcome(accountNumber);
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
    // The last six characters "000000" stand for a head office: the bank returns no branch.
    const branch = ifsc.endsWith('000000') ? undefined : `Branch ${ifsc.slice(5)}`;
    record.bank = {
      accountNumber,
      maskedAccountNumber: maskTail(accountNumber),
      bankName: bankNameOf(ifsc),
      branch,
      ifsc,
      accountHolderName: found.toUpperCase(),
      verifiedAt: ctx.nowIso,
    };
    recordStep(ctx.state, user.id, 'bank', 'POST /kyc/bank/verify', why);
    applyAggregate(ctx.state, user, record, { type: 'recompute' });
    const { bankName, maskedAccountNumber } = record.bank;
    return {
      explain: why,
      data: {
        verified: true,
        bankName,
        branch,
        accountHolderName: found.toUpperCase(),
        maskedAccountNumber,
        ifsc,
      },
      message: 'Bank account verified',
    };
  },
  { shape: 'B', bodySchema: BankVerifyRequest },
);

/** The bank route. */
export const bank = defineModule({ name: 'kyc.bank', routes: [verify] });
