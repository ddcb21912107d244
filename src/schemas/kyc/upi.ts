/** UPI verification (spec 4.8), with its three outcomes, all `success: true`. */
import * as z from 'zod/mini';
import { stringMatching } from '../../internal/checks.js';
import { DeviceId, responseObject } from '../common.js';

/**
 * A UPI ID (VPA): `username@handle`. The username is 2 to 256 of letters, digits, `.`, `_`, `-` (so a
 * mobile number fits); the handle starts with a letter and has 2 to 65 letters, digits or `.`
 * (`upi`, `okhdfcbank`, `ybl`). Roughly what NPCI accepts; the service has the final word.
 */
export const UPI_ID_PATTERN = /^[a-zA-Z0-9._-]{2,256}@[a-zA-Z][a-zA-Z0-9.]{1,64}$/;
const UPI_RULE = 'upiId must be a UPI ID in the form username@handle, like asha@okhdfcbank';

/** `POST /v2/users/{userId}/kyc/upi/verify` body. */
export const UpiVerifyRequest = z.object({
  upiId: stringMatching(UPI_ID_PATTERN, UPI_RULE),
  deviceId: z.optional(DeviceId),
});
/** UPI verify body. */
export type UpiVerifyRequest = z.infer<typeof UpiVerifyRequest>;

// The name the VPA is registered to, and its score against the user's: outcomes 1 and 2 differ in `verified`.
const named = {
  name: z.string(),
  bankName: z.nullable(z.string()),
  nameMatchScore: z.number(),
  message: z.optional(z.string()),
};

/** Outcome 1: name score of 70 or more, `verified: true`. */
export const UpiVerified = responseObject({ verified: z.literal(true), ...named });
/** A verified UPI ID. */
export type UpiVerified = z.infer<typeof UpiVerified>;

/** Outcome 2: the VPA exists but its name scores under 70, `verified: false` with an explanatory message. */
export const UpiNameMismatch = responseObject({ verified: z.literal(false), ...named });
/** A UPI ID whose name does not match. */
export type UpiNameMismatch = z.infer<typeof UpiNameMismatch>;

/** Outcome 3: an invalid VPA, `verified: false` with `name`, `bankName`, `nameMatchScore` all null. */
export const UpiInvalidVpa = responseObject({
  verified: z.literal(false),
  name: z.null(),
  bankName: z.null(),
  nameMatchScore: z.null(),
  message: z.optional(z.string()),
});
/** An invalid UPI ID. */
export type UpiInvalidVpa = z.infer<typeof UpiInvalidVpa>;

/** `POST /v2/users/{userId}/kyc/upi/verify` data: one of three outcomes, which `upiOutcome(r)` names. */
export const UpiVerification = z.union([UpiVerified, UpiNameMismatch, UpiInvalidVpa]);
/** A UPI verification answer. */
export type UpiVerification = z.infer<typeof UpiVerification>;
