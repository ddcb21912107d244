/**
 * What each sandbox value explains when it decides an answer or a transition (docs/sandbox-values.md,
 * "Explanations"): the rule (`sandbox.<group>.<value>`, named as in `mock/sandbox-values.ts`), the spec
 * section of the step it steers, and what would take the other path. The routes and operations that honour a
 * sandbox value take its explanation from here, so the doc's table, the header and the journal say one thing.
 */
import type { Explanation } from './engine/explain.js';
import { SANDBOX_KYC, SANDBOX_TRANSACTIONS } from './sandbox-values.js';

const { bank, upi, pan } = SANDBOX_KYC;
const CHOOSE_BANK = "helpers.kyc.chooseOutcome({ userId, step: 'bank', outcome: 'verified' })";
const CHOOSE_UPI = "helpers.kyc.chooseOutcome({ userId, step: 'upi', outcome: 'verified' })";

/** The explanation of each sandbox value that decides an outcome by itself. */
export const SANDBOX_EXPLANATIONS = {
  bankPennyDropFails: {
    rule: 'sandbox.bank.pennyDropFails',
    because: `account number ${bank.pennyDropFails} is the sandbox account whose penny drop fails`,
    section: '4.7',
    change: `send any other accountNumber, or ${CHOOSE_BANK}`,
  },
  bankProviderError: {
    rule: 'sandbox.bank.providerError',
    because: `account number ${bank.providerError} is the sandbox account whose bank errors`,
    section: '4.7',
    change: `send any other accountNumber, or ${CHOOSE_BANK}`,
  },
  upiInvalidVpa: {
    rule: 'sandbox.upi.invalidVpa',
    because: `${upi.invalidVpa} is the sandbox UPI ID no account has`,
    section: '4.8',
    change: `send any other upiId, or ${CHOOSE_UPI}`,
  },
  upiProviderError: {
    rule: 'sandbox.upi.providerError',
    because: `${upi.providerError} is the sandbox UPI ID whose provider errors`,
    section: '4.8',
    change: `send any other upiId, or ${CHOOSE_UPI}`,
  },
  panNotFound: {
    rule: 'sandbox.pan.notFound',
    because: `${pan.notFound} is the sandbox PAN the income-tax database does not have`,
    section: '7.3',
    change: 'send any other valid PAN',
  },
  passportUnreadable: {
    rule: 'sandbox.unreadablePassportMarker',
    because: `the file contains ${SANDBOX_KYC.unreadablePassportMarker}, the sandbox marker of an unreadable passport`,
    section: '4.6',
    change: `send a file without the text ${SANDBOX_KYC.unreadablePassportMarker}`,
  },
  digilockerUnavailable: {
    rule: 'sandbox.digilockerUnavailableDeviceId',
    because: `deviceId ${SANDBOX_KYC.digilockerUnavailableDeviceId} is the sandbox device the document locker does not answer`,
    section: '4.4',
    change: 'send any other deviceId, or none',
  },
  payoutFailureAmount: {
    rule: 'sandbox.transactions.payoutFailureAmount',
    because: `${SANDBOX_TRANSACTIONS.payoutFailureAmount} USD is the sandbox amount whose payout the provider rejects`,
    section: '7.3',
    change:
      'send any other amount, or helpers.transactions.completePayout({ transactionId }) before it settles',
  },
  sweepFailureAmount: {
    rule: 'sandbox.transactions.sweepFailureAmount',
    because: `${SANDBOX_TRANSACTIONS.sweepFailureAmount} USD is the sandbox deposit whose pool sweep fails`,
    section: '6.2',
    change: 'deposit any other amount',
  },
} as const satisfies Record<string, Explanation>;

/**
 * A name on record scored under the 70 needed (spec 4.7, 4.8; PAN 7.3): why, naming the sandbox value when one
 * put the other person's name on record.
 */
export function nameMismatch(input: {
  section: string;
  /** What the name on record came from. */
  field: string;
  found: string;
  expected: string;
  score: number;
  /** The sandbox value that put `found` on record (`sandbox.bank.otherHolder`), when one did. */
  sandbox?: { rule: string; value: string };
}): Explanation {
  const { section, field, found, expected, score, sandbox } = input;
  const scored = `name match score ${score} of ${found} against the Aadhaar name ${expected}, at least 70 needed`;
  return sandbox
    ? {
        rule: sandbox.rule,
        because: `${sandbox.value} is the sandbox ${field} held by ${SANDBOX_KYC.otherPersonName}: ${scored}`,
        section,
        change: `send any other ${field}`,
      }
    : {
        rule: 'NAME_MISMATCH',
        because: scored,
        section,
        change: `send the ${field} as it reads on the Aadhaar (${expected})`,
      };
}

/**
 * The outcome a test chose with `helpers.kyc.chooseOutcome`, which decides the next verification of `step`.
 */
export function chosenOutcome(step: 'bank' | 'upi', outcome: string): Explanation {
  return {
    rule: 'helper.kyc.chooseOutcome',
    because: `helpers.kyc.chooseOutcome chose ${outcome} for this user's next ${step} verification`,
    section: step === 'bank' ? '4.7' : '4.8',
    change: 'the choice is used once: the next verification answers from its input',
  };
}
