// PAN verification (assumed, docs/assumptions.md): fields from the `pan` block (spec 2.7); `PAN_INVALID`,
// `PAN_NOT_FOUND`, `NAME_MISMATCH` from 7.3.
import * as z from 'zod/mini';
import { stringMatching } from '../../internal/checks.js';
import { DeviceId, responseObject, Timestamp } from '../common.js';

/** A PAN: five letters, four digits, one letter (`ABCDE1234F`). */
export const PAN_PATTERN = /^[A-Z]{5}\d{4}[A-Z]$/;
const PAN_RULE = 'pan must be a PAN like ABCDE1234F (5 capital letters, 4 digits, 1 capital letter)';

/** `POST /v2/users/{userId}/kyc/pan/verify` body (assumed): `pan`, `deviceId?`. */
export const PanVerifyRequest = z.object({
  pan: stringMatching(PAN_PATTERN, PAN_RULE),
  deviceId: z.optional(DeviceId),
});
/** PAN verify body. */
export type PanVerifyRequest = z.infer<typeof PanVerifyRequest>;

/** `POST /v2/users/{userId}/kyc/pan/verify` data (assumed). */
export const PanVerification = responseObject({
  verified: z.boolean(),
  maskedNumber: z.optional(z.string()),
  nameOnPan: z.optional(z.string()),
  nameMatchScore: z.optional(z.number()),
  verifiedAt: z.optional(Timestamp),
});
/** A verified PAN. */
export type PanVerification = z.infer<typeof PanVerification>;
