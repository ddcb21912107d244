/** Document-locker consent (spec 3.2, 4.4): init, and the status the client polls, with its variants. */
import * as z from 'zod/mini';
import { absoluteUrl } from '../../internal/checks.js';
import { DeviceId, openEnum, requiredString, responseObject } from '../common.js';

/** Document-locker session statuses (spec 3.2). */
export const digilockerStatuses = ['PENDING', 'VERIFIED', 'FAILED', 'EXPIRED'] as const;
/** Response field: a document-locker session status (open). */
export const DigilockerSessionStatus = openEnum(digilockerStatuses);
/** A document-locker session status. */
export type DigilockerSessionStatus = z.infer<typeof DigilockerSessionStatus>;

const REDIRECT_RULE = 'redirectUrl must be an absolute URL';

/** `POST /v2/users/{userId}/kyc/digilocker/init` body: `redirectUrl` and `deviceId`, both optional. */
export const DigilockerInitRequest = z.object({
  redirectUrl: z.optional(absoluteUrl(REDIRECT_RULE)),
  deviceId: z.optional(DeviceId),
});
/** Document-locker init body. */
export type DigilockerInitRequest = z.infer<typeof DigilockerInitRequest>;

/** `POST /v2/users/{userId}/kyc/digilocker/init` data: the session the user opens at `url`. */
export const DigilockerSession = responseObject({
  clientId: z.string(),
  url: z.string(),
  expiresIn: z.number(),
  message: z.optional(z.string()),
});
/** A document-locker session. */
export type DigilockerSession = z.infer<typeof DigilockerSession>;

/** `GET /v2/users/{userId}/kyc/digilocker/status` query: `clientId` from init. */
export const DigilockerStatusQuery = z.object({ clientId: requiredString('clientId') });
/** Document-locker status query. */
export type DigilockerStatusQuery = z.infer<typeof DigilockerStatusQuery>;

/** The Aadhaar data a verified session returns. */
export const DigilockerAadhaar = responseObject({
  name: z.string(),
  dob: z.optional(z.string()),
  gender: z.optional(z.string()),
  address: z.optional(z.string()),
  maskedAadhaar: z.optional(z.string()),
  pincode: z.optional(z.string()),
  state: z.optional(z.string()),
  district: z.optional(z.string()),
});
/** Aadhaar data from the document locker. */
export type DigilockerAadhaar = z.infer<typeof DigilockerAadhaar>;

/** The Verified variant: `status: VERIFIED`, `verified: true`, with `aadhaar` and `pan`. */
export const DigilockerVerified = responseObject({
  status: z.literal('VERIFIED'),
  verified: z.literal(true),
  aadhaar: DigilockerAadhaar,
  pan: z.optional(responseObject({ number: z.string(), name: z.string() })),
});
/** A verified document-locker session. */
export type DigilockerVerified = z.infer<typeof DigilockerVerified>;

/** The Pending variant: `status: PENDING`, `verified: false`, `message`. */
export const DigilockerPending = responseObject({
  status: z.literal('PENDING'),
  verified: z.literal(false),
  message: z.optional(z.string()),
});
/** A session still waiting for the user. */
export type DigilockerPending = z.infer<typeof DigilockerPending>;

/** The Expired (sent with `success: false`, returned by the client) and Failed variants, with `error`. */
export const DigilockerEnded = responseObject({
  status: z.literal(['EXPIRED', 'FAILED']),
  verified: z.literal(false),
  error: z.optional(z.string()),
  message: z.optional(z.string()),
});
/** An expired or failed session. */
export type DigilockerEnded = z.infer<typeof DigilockerEnded>;

/** `GET /v2/users/{userId}/kyc/digilocker/status` data: Verified, Pending, Expired or Failed (on `status`). */
export const DigilockerStatus = z.union([DigilockerVerified, DigilockerPending, DigilockerEnded]);
/** A document-locker session status answer. */
export type DigilockerStatus = z.infer<typeof DigilockerStatus>;
