// Aadhaar OTP (assumed, docs/assumptions.md): send an OTP for an Aadhaar number, then verify it. Fields
// from the `aadhaar` block of the KYC status record (spec 2.7); `AADHAAR_OTP_EXPIRED` from 7.3.
import * as z from 'zod/mini';
import { stringMatching } from '../../internal/checks.js';
import { DeviceId, Otp, requiredString, responseObject, Timestamp } from '../common.js';

const AADHAAR_RULE = 'aadhaarNumber must be exactly 12 digits';

/**
 * `POST /v2/users/{userId}/kyc/aadhaar/otp/send` body (assumed): `aadhaarNumber` (12 digits), `deviceId?`.
 */
export const AadhaarOtpSendRequest = z.object({
  aadhaarNumber: stringMatching(/^\d{12}$/, AADHAAR_RULE),
  deviceId: z.optional(DeviceId),
});
/** Aadhaar OTP send body. */
export type AadhaarOtpSendRequest = z.infer<typeof AadhaarOtpSendRequest>;

/** `POST /v2/users/{userId}/kyc/aadhaar/otp/send` data (assumed). */
export const AadhaarOtpSent = responseObject({
  referenceId: z.string(),
  maskedAadhaar: z.string(),
  expiresIn: z.number(),
  message: z.optional(z.string()),
});
/** An Aadhaar OTP session. */
export type AadhaarOtpSent = z.infer<typeof AadhaarOtpSent>;

/**
 * `POST /v2/users/{userId}/kyc/aadhaar/otp/verify` body (assumed): `referenceId`, `otp` (6 digits), `deviceId?`.
 */
export const AadhaarOtpVerifyRequest = z.object({
  referenceId: requiredString('referenceId'),
  otp: Otp,
  deviceId: z.optional(DeviceId),
});
/** Aadhaar OTP verify body. */
export type AadhaarOtpVerifyRequest = z.infer<typeof AadhaarOtpVerifyRequest>;

/** `POST /v2/users/{userId}/kyc/aadhaar/otp/verify` data (assumed). */
export const AadhaarVerification = responseObject({
  verified: z.boolean(),
  maskedNumber: z.optional(z.string()),
  nameOnAadhaar: z.optional(z.string()),
  verifiedAt: z.optional(Timestamp),
});
/** A verified Aadhaar. */
export type AadhaarVerification = z.infer<typeof AadhaarVerification>;
