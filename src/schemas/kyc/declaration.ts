// The declaration (spec 2.10, 4.11): occupation, income range and PEP status. A PEP declaration rejects
// KYC at once (spec 3.3).
import * as z from 'zod/mini';
import { oneOf, stringOfLength } from '../../internal/checks.js';
import {
  DeviceId,
  MAX_OCCUPATION_OTHER_LENGTH,
  MAX_PEP_DETAILS_LENGTH,
  openEnum,
  responseObject,
  Timestamp,
} from '../common.js';

/** Occupations (spec 4.11). */
export const occupations = [
  'salaried',
  'self_employed',
  'business',
  'professional',
  'student',
  'retired',
  'homemaker',
  'unemployed',
  'other',
] as const;
/** Annual INR income ranges (spec 4.11). */
export const incomeRanges = [
  'below_5l',
  '5l_to_10l',
  '10l_to_25l',
  '25l_to_50l',
  '50l_to_1cr',
  'above_1cr',
] as const;

const OTHER_RULE = `occupationOther must be a string of at most ${MAX_OCCUPATION_OTHER_LENGTH} characters`;
const OTHER_REQUIRED_RULE =
  'occupationOther is required when occupation is other: say what the occupation is';
const PEP_RULE = `pepDetails must be a string of at most ${MAX_PEP_DETAILS_LENGTH} characters`;
const ACCEPTED_RULE = 'declarationAccepted must be true: the user has to accept the declaration';

/**
 * `POST /v2/users/{userId}/kyc/declaration` body. `occupationOther` (at most 100 characters) is required
 * when `occupation` is `other`; `pepDetails` (name assumed; at most 500 characters) adds detail when
 * `isPep` is true; `declarationAccepted` must be `true`.
 */
export const DeclarationRequest = z
  .object({
    occupation: oneOf('occupation', occupations),
    occupationOther: z.optional(stringOfLength(0, MAX_OCCUPATION_OTHER_LENGTH, OTHER_RULE)),
    incomeRange: oneOf('incomeRange', incomeRanges),
    isPep: z.boolean({ error: 'isPep is required and must be a boolean' }),
    pepDetails: z.optional(stringOfLength(0, MAX_PEP_DETAILS_LENGTH, PEP_RULE)),
    declarationAccepted: z.literal(true, { error: ACCEPTED_RULE }),
    deviceId: z.optional(DeviceId),
  })
  .check(
    z.refine((d) => d.occupation !== 'other' || (d.occupationOther ?? '').trim().length > 0, {
      error: OTHER_REQUIRED_RULE,
      path: ['occupationOther'],
      // Only on an object whose occupation fields passed (a body of null is already an issue of its own).
      when: (payload) =>
        typeof payload.value === 'object' &&
        payload.value !== null &&
        !payload.issues.some((i) => i.path?.[0] === 'occupation' || i.path?.[0] === 'occupationOther'),
    }),
  );
/** Declaration body. */
export type DeclarationRequest = z.infer<typeof DeclarationRequest>;

/** `POST /v2/users/{userId}/kyc/declaration` data on success: the declaration record (spec 2.10). */
export const Declaration = responseObject({
  declarationId: z.string(),
  occupation: openEnum(occupations),
  incomeRange: openEnum(incomeRanges),
  isPep: z.boolean(),
  submittedAt: Timestamp,
});
/** An accepted declaration. */
export type Declaration = z.infer<typeof Declaration>;

/** A PEP rejection's `data` (`KYC Rejected`), returned as a result, not thrown (`isDeclarationRejected`). */
export const DeclarationRejected = responseObject({
  declarationId: z.string(),
  isPep: z.boolean(),
  kycStatus: z.literal('rejected'),
});
/** A declaration that rejected KYC (PEP). */
export type DeclarationRejected = z.infer<typeof DeclarationRejected>;

/** What a declaration submission gives: the record, or the PEP rejection. */
export const DeclarationResult = z.union([DeclarationRejected, Declaration]);
/** A declaration outcome. */
export type DeclarationResult = z.infer<typeof DeclarationResult>;
