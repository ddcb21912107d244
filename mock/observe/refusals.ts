/**
 * What changes each refusal, by its error identifier (spec 7.3, 7.4; shape B's `error` as `VERIFICATION_FAILED`):
 * the third part of a refusal's explanation when the resolver that refused gave none. The section is the
 * route's own (spec 4.x) unless the rule lives elsewhere, so the pipeline needs no other knowledge of a route.
 */
import { CONTRACTS, type OperationId } from '../../src/endpoints/index.js';
import type { MockApiError } from '../engine/errors.js';
import { codeFromError } from '../engine/errors.js';
import type { Explanation } from '../engine/explain.js';

/** The `change` (and, where the rule is not the route's, the `section`) of a refusal. */
type RefusalRule = Pick<Explanation, 'change'> & Partial<Pick<Explanation, 'section'>>;

const NEW_SESSION = 'initialise a new session with the init endpoint, then use its id';

/**
 * What changes each refusal, by identifier. A test checks every identifier the OpenAPI document lists has a row.
 */
export const REFUSAL_RULES: Readonly<Record<string, RefusalRule>> = {
  VALIDATION_ERROR: { change: 'send the fields the message names in the form the spec gives' },
  BAD_REQUEST: { change: 'send the body the message describes' },
  USER_NOT_FOUND: {
    change: 'use a userId this account created (POST /v2/users, helpers.seed, helpers.users.seedVerified)',
  },
  NOT_FOUND: {
    change: 'use an id this account created (POST /v2/users, helpers.seed, helpers.users.seedVerified)',
  },
  TRANSACTION_NOT_FOUND: { change: 'use a transactionId this account created (POST /v2/transactions)' },
  EVENT_NOT_FOUND: { change: 'use an eventId from GET /v2/webhooks' },
  SESSION_NOT_FOUND: { change: NEW_SESSION },
  SESSION_EXPIRED: { change: NEW_SESSION },
  UPLOAD_NOT_FOUND: {
    change: 'upload the file to the URL from POST /kyc/document/upload-url first (helpers.kyc.upload)',
  },
  USER_EXISTS: { change: 'register another mobile number, or use the user already registered' },
  ALREADY_VERIFIED: {
    change: 'nothing to do: the step is done; use a new user (helpers.seed) to run it again',
  },
  TOO_MANY_REQUESTS: { change: 'wait before sending another OTP (helpers.clock.advance)' },
  NO_EMAIL: { change: 'create the user with an email address' },
  NO_OTP_FOUND: { change: 'send an OTP first with the send endpoint' },
  MAX_ATTEMPTS: { change: 'send a new OTP with the send endpoint' },
  INVALID_OTP: { change: 'send the OTP that was sent: helpers.otp.read({ userId, channel })' },
  AADHAAR_OTP_EXPIRED: {
    change: 'send a new OTP (POST /kyc/aadhaar/otp/send) and verify it in time: helpers.kyc.aadhaarOtp',
  },
  PAN_INVALID: { change: 'send a PAN of 5 letters, 4 digits and 1 letter (ABCDE1234F)' },
  PAN_NOT_FOUND: { change: 'send a PAN that exists (any valid PAN but ZZZZZ9999Z in the sandbox)' },
  NAME_MISMATCH: { change: 'send a name scoring at least 70 against the Aadhaar name' },
  KYC_INCOMPLETE: {
    change: 'complete KYC first (GET /kyc/status says what is missing), or seed helpers.users.seedVerified',
  },
  KYC_REJECTED: { change: 'a rejected KYC is final: use a new user (helpers.seed)' },
  NO_BANK_ACCOUNT: {
    change: 'verify a bank account (POST /kyc/bank/verify), or seed helpers.users.seedVerified with a bank',
  },
  PENDING_TRANSACTION_EXISTS: {
    change:
      'let the active transaction finish (helpers.transactions.simulateDeposit, helpers.clock.advance) or expire',
  },
  AMOUNT_TOO_LOW: { change: 'send at least 10 USD', section: '8' },
  AMOUNT_TOO_HIGH: { change: 'send at most 50,000 USD', section: '8' },
  PARTNER_REFERENCE_EXISTS: { change: 'send a partnerReference this account has not used' },
  PREFUNDED_NOT_ALLOWED: {
    change:
      "approve prefunding for the account: helpers.accounts.update({ prefunded: { approved: true, creditLimitUsd: '1000' } })",
  },
  CREDIT_LIMIT_EXCEEDED: {
    change: 'send a smaller amount, or raise creditLimitUsd with helpers.accounts.update',
  },
  KYC_NOT_VERIFIED: { change: 'complete KYC before the payout (helpers.users.seedVerified)', section: '7.3' },
  KYC_LEVEL_INSUFFICIENT: { change: 'complete at least basic KYC before the payout', section: '7.3' },
  BANK_ACCOUNT_INVALID: { change: 'verify a bank account before the payout', section: '7.3' },
  PAYOUT_FAILED: { change: 'send any other amount than the sandbox failure amount 66.60 USD' },
  FUNDING_WINDOW_EXPIRED: { change: 'send the deposit within 24 hours of the payout', section: '8' },
  QUOTE_EXPIRED: {
    change: 'deposit within 30 minutes of the quote (helpers.transactions.simulateDeposit)',
    section: '3.1',
  },
  VERIFICATION_FAILED: { change: 'send the input again; the message says what failed' },
  SERVICE_UNAVAILABLE: { change: 'try again later' },
  INTERNAL_SERVER_ERROR: { change: 'try again; the message says what failed' },
  UNPROCESSABLE_ENTITY: { change: 'send input the message says would pass' },
  CONFLICT: { change: 'nothing to do: the step is done; use a new user (helpers.seed) to run it again' },
};

/** When no row names the identifier: the message is all the mock knows. */
const FALLBACK: RefusalRule = { change: 'send the request the message asks for' };

/** The rule of an identifier, or the fallback. */
export function refusalRule(identifier: string): RefusalRule {
  return Object.hasOwn(REFUSAL_RULES, identifier) ? (REFUSAL_RULES[identifier] ?? FALLBACK) : FALLBACK;
}

/**
 * A resolver's refusal, completed: the identifier's rule and the section of the route's row (none for the
 * catch-all) fill what the thrower did not say.
 */
export function refusalExplanation(operationId: OperationId | undefined, error: MockApiError): Explanation {
  const identifier = error.body.code ?? codeFromError(error.body.error);
  const rule = refusalRule(identifier);
  return {
    rule: identifier,
    because: error.body.message,
    section: rule.section ?? (operationId && CONTRACTS[operationId].section) ?? '7.3',
    change: rule.change,
    ...error.why,
  };
}

/** The refusals the pipeline itself makes, before any route runs (and its own failure). */
export const PIPELINE_REFUSALS = {
  unauthorized: {
    rule: 'UNAUTHORIZED',
    because: 'the Bearer key names no account',
    section: '5',
    change: "send Authorization: Bearer with an account's key (mock.sandboxKey, helpers.accounts.create)",
  },
  forbidden: (ip: string): Explanation => ({
    rule: 'FORBIDDEN',
    because: `${ip} is not on the account's IP allow-list`,
    section: '5',
    change: 'call from an allowed address, or change ipAllowList with helpers.accounts.update',
  }),
  rateLimited: (perMinute: number, retryAfter: number): Explanation => ({
    rule: 'RATE_LIMITED',
    because: `${perMinute} requests per minute used`,
    section: '7.6',
    change: `wait ${retryAfter} s (helpers.clock.advance), or raise limits.rateLimit with helpers.accounts.update`,
  }),
  idempotencyConflict: {
    rule: 'IDEMPOTENCY_CONFLICT',
    because: 'this Idempotency-Key was used with another body',
    section: '7.5',
    change: 'send a new Idempotency-Key, or the first body again to get its answer',
  },
  fault: (status: number): Explanation => ({
    rule: 'FAULT',
    because: `an injected ${status} fault (helpers.faults.inject or chaos)`,
    section: '7.2',
    change: 'helpers.faults.clear(), or a fault matching other requests',
  }),
  internal: (detail: string): Explanation => ({
    rule: 'INTERNAL_ERROR',
    because: `the mock itself failed: ${detail}`,
    section: '7.2',
    change: 'nothing in the request: report it with GET /__mock/journal and the request',
  }),
} as const;
