/** KYC status (spec 2.7, 2.8, 3.3, 4.5): the status record, refresh and the extended status. */
import * as z from 'zod/mini';
import { openEnum, responseObject, Timestamp } from '../common.js';
import { digilockerStatuses } from './digilocker.js';

/** KYC levels (spec 2.7). */
export const kycLevels = ['none', 'basic', 'enhanced'] as const;
/** KYC aggregate statuses (spec 2.7, 3.3). */
export const kycStatuses = ['pending', 'in_progress', 'verified', 'rejected'] as const;

/** Response field: a KYC level (open). */
export const KycLevel = openEnum(kycLevels);
/** A KYC level. */
export type KycLevel = z.infer<typeof KycLevel>;
/** Response field: a KYC aggregate status (open). */
export const KycAggregateStatus = openEnum(kycStatuses);
/** A KYC aggregate status. */
export type KycAggregateStatus = z.infer<typeof KycAggregateStatus>;

const verified = z.optional(z.boolean());
// Spec 2.7 shows the block as `{status: pending}` before the flow completes; after it, the session's own (3.2).
const DigilockerRecordStatus = openEnum(['pending', ...digilockerStatuses]);

/** A step's block of the record, optional: `verified` and the step's own fields. */
const block = <Shape extends z.core.$ZodLooseShape>(shape: Shape) =>
  z.optional(responseObject({ verified, ...shape }));

/** A block of the KYC status record; a missing `verified` reads as false (spec 2.7 rule 2, `isVerified`). */
export const KycBlock = responseObject({ verified });
/** A block of the KYC status record. */
export type KycBlock = z.infer<typeof KycBlock>;

/** The KYC status record (spec 2.7); every block and field is optional, the service omits what has none. */
export const KycStatus = responseObject({
  level: KycLevel,
  status: KycAggregateStatus,
  digilocker: block({
    status: z.optional(DigilockerRecordStatus),
    completedAt: z.optional(Timestamp),
  }),
  aadhaar: block({
    maskedNumber: z.optional(z.string()),
    nameOnAadhaar: z.optional(z.string()),
    verifiedAt: z.optional(Timestamp),
  }),
  pan: block({
    maskedNumber: z.optional(z.string()),
    nameOnPan: z.optional(z.string()),
    nameMatchScore: z.optional(z.number()),
    verifiedAt: z.optional(Timestamp),
  }),
  passport: z.optional(KycBlock),
  attestation: block({
    docType: z.optional(z.string()),
    country: z.optional(z.string()),
    issuingCountry: z.optional(z.string()),
    legalName: z.optional(z.string()),
    verifiedAt: z.optional(Timestamp),
  }),
  face: z.optional(KycBlock),
  upi: z.optional(KycBlock),
  bank: block({
    maskedAccountNumber: z.optional(z.string()),
    bankName: z.optional(z.string()),
    ifsc: z.optional(z.string()),
    verifiedAt: z.optional(Timestamp),
  }),
});
/** The KYC status record. */
export type KycStatus = z.infer<typeof KycStatus>;

/** A `{ level, status }` pair, as refresh reports it. */
export const KycLevelStatus = responseObject({ level: KycLevel, status: KycAggregateStatus });
/** A level and status pair. */
export type KycLevelStatus = z.infer<typeof KycLevelStatus>;

/** `POST /v2/users/{userId}/kyc/refresh` data: `previous` and `current`. */
export const KycRefresh = responseObject({ previous: KycLevelStatus, current: KycLevelStatus });
/** The result of a KYC refresh. */
export type KycRefresh = z.infer<typeof KycRefresh>;

/** A part of the extended status, optional: whether it was `submitted`, and what was. */
const submission = <Shape extends z.core.$ZodLooseShape>(shape: Shape) =>
  z.optional(responseObject({ submitted: z.boolean(), ...shape }));

/**
 * `GET /v2/users/{userId}/kyc/extended-status` data (spec 2.8); the spec shows no `missing` entries (the mock
 * uses `profile`, `document`, `declaration`).
 */
export const ExtendedStatus = responseObject({
  complete: z.boolean(),
  missing: z.array(z.string()),
  isPepRejected: z.boolean(),
  profile: submission({
    dateOfBirth: z.optional(z.string()),
    nationality: z.optional(z.string()),
    city: z.optional(z.string()),
    submittedAt: z.optional(Timestamp),
  }),
  document: submission({
    documentType: z.optional(z.string()),
    fileName: z.optional(z.string()),
    verified: z.optional(z.boolean()),
    uploadedAt: z.optional(Timestamp),
  }),
  declaration: submission({
    occupation: z.optional(z.string()),
    incomeRange: z.optional(z.string()),
    isPep: z.optional(z.boolean()),
    submittedAt: z.optional(Timestamp),
  }),
});
/** The extended KYC status. */
export type ExtendedStatus = z.infer<typeof ExtendedStatus>;
