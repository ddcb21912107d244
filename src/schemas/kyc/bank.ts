/** Bank account verification by penny drop (spec 4.7). */
import * as z from 'zod/mini';
import { stringMatching } from '../../internal/checks.js';
import { DeviceId, requiredString, responseObject } from '../common.js';
import { MAX_ACCOUNT_NUMBER_DIGITS, MIN_ACCOUNT_NUMBER_DIGITS } from '../limits.js';

/** An Indian account number: {@link MIN_ACCOUNT_NUMBER_DIGITS} to {@link MAX_ACCOUNT_NUMBER_DIGITS} digits. */
export const ACCOUNT_NUMBER_PATTERN = new RegExp(
  `^\\d{${MIN_ACCOUNT_NUMBER_DIGITS},${MAX_ACCOUNT_NUMBER_DIGITS}}$`,
);
/** An IFSC: 11 characters, 4 capital letters, `0`, then 6 capital letters or digits (`HDFC0001234`). */
export const IFSC_PATTERN = /^[A-Z]{4}0[A-Z0-9]{6}$/;

const ACCOUNT_RULE = `accountNumber must be ${MIN_ACCOUNT_NUMBER_DIGITS} to ${MAX_ACCOUNT_NUMBER_DIGITS} digits`;
const IFSC_RULE =
  'ifsc must be 11 characters: 4 capital letters, 0, 6 capital letters or digits (like HDFC0001234)';

/** `POST /v2/users/{userId}/kyc/bank/verify` body. */
export const BankVerifyRequest = z.object({
  accountNumber: stringMatching(ACCOUNT_NUMBER_PATTERN, ACCOUNT_RULE),
  ifsc: stringMatching(IFSC_PATTERN, IFSC_RULE),
  accountHolderName: requiredString('accountHolderName'),
  deviceId: z.optional(DeviceId),
});
/** Bank verify body. */
export type BankVerifyRequest = z.infer<typeof BankVerifyRequest>;

/** `POST /v2/users/{userId}/kyc/bank/verify` data. `branch` is omitted when the bank returns none. */
export const BankVerification = responseObject({
  verified: z.boolean(),
  bankName: z.optional(z.string()),
  branch: z.optional(z.string()),
  accountHolderName: z.optional(z.string()),
  maskedAccountNumber: z.optional(z.string()),
  ifsc: z.optional(z.string()),
});
/** A verified bank account. */
export type BankVerification = z.infer<typeof BankVerification>;

/**
 * The `data` of a bank name mismatch (`success: false`, `error: Name Mismatch`): the Aadhaar name
 * expected, the name the bank returned, and their similarity (under 70).
 */
export const BankNameMismatch = responseObject({
  expected: z.string(),
  found: z.string(),
  matchScore: z.number(),
});
/** A bank name mismatch. */
export type BankNameMismatch = z.infer<typeof BankNameMismatch>;
