/**
 * KYC records (spec 2.7, 2.8, 3.2, 3.3, 4.4 to 4.11): one aggregate per user with the result of each step,
 * and the sessions the steps open (document locker, face, Aadhaar OTP, document uploads). All plain data.
 */
import type { DeclarationRequest } from '../../src/schemas/kyc/declaration.js';
import type { DigilockerAadhaar } from '../../src/schemas/kyc/digilocker.js';
import type { ProfileSubmitRequest } from '../../src/schemas/kyc/profile.js';
import { keyed } from './records.js';

/** KYC level (spec 2.7). */
export type KycLevel = 'none' | 'basic' | 'enhanced';

/** KYC aggregate status (spec 3.3). */
export type KycStatus = 'pending' | 'in_progress' | 'verified' | 'rejected';

/** A verified Aadhaar (from the document locker or the Aadhaar OTP). */
export interface AadhaarStep {
  maskedNumber: string;
  nameOnAadhaar: string;
  verifiedAt: string;
  source: 'digilocker' | 'otp';
}

/** A verified PAN. */
export interface PanStep {
  number: string;
  maskedNumber: string;
  nameOnPan: string;
  nameMatchScore?: number;
  verifiedAt: string;
}

/** A verified bank account (penny drop passed, name matched). */
export interface BankStep {
  accountNumber: string;
  maskedAccountNumber: string;
  bankName: string;
  branch?: string;
  ifsc: string;
  accountHolderName: string;
  verifiedAt: string;
}

/** The extended profile (assumed endpoint): the fields submitted, under an ID. */
export type ProfileStep = Omit<ProfileSubmitRequest, 'deviceId'> & { profileId: string; submittedAt: string };

/** A confirmed document (spec 2.9). */
export interface DocumentStep {
  documentId: string;
  documentType: string;
  fileName: string;
  s3Key: string;
  uploadedAt: string;
}

/** A declaration (spec 2.10): the answers submitted, under an ID. */
export type DeclarationStep = Omit<DeclarationRequest, 'declarationAccepted' | 'deviceId'> & {
  declarationId: string;
  submittedAt: string;
};

/** The KYC aggregate of one user and the result of each step; a step is present once done. */
export interface KycRecord {
  userId: string;
  level: KycLevel;
  status: KycStatus;
  updatedAt: string;
  digilocker?: { verifiedAt: string };
  aadhaar?: AadhaarStep;
  pan?: PanStep;
  passport?: { givenName: string; surname: string; nationality: string; dob: string; verifiedAt: string };
  face?: { livenessScore: number; faceMatchScore: number; verifiedAt: string };
  upi?: { upiId: string; name: string; nameMatchScore: number; verifiedAt: string };
  bank?: BankStep;
  profile?: ProfileStep;
  document?: DocumentStep;
  declaration?: DeclarationStep;
  /** Set by a PEP declaration (spec 3.3). */
  isPepRejected: boolean;
}

/** Document-locker session status (spec 3.2). */
export type DigilockerSessionState = 'PENDING' | 'VERIFIED' | 'FAILED' | 'EXPIRED';

/** A document-locker consent session (spec 4.4). */
export interface DigilockerSessionRecord {
  clientId: string;
  userId: string;
  status: DigilockerSessionState;
  /** Where the consent page sends the user afterwards. */
  redirectUrl?: string;
  deviceId?: string;
  createdAt: string;
  expiresAt: string;
  completedAt?: string;
  /** Why it FAILED or EXPIRED. */
  reason?: string;
  aadhaar?: DigilockerAadhaar;
  pan?: { number: string; name: string };
}

/**
 * Face session status: PENDING until the user finishes, then PASSED or FAILED; EXPIRED after 600 s pending.
 */
export type FaceSessionState = 'PENDING' | 'PASSED' | 'FAILED' | 'EXPIRED';

/** A face liveness session (spec 4.9). */
export interface FaceSessionRecord {
  sessionId: string;
  userId: string;
  sdkToken: string;
  status: FaceSessionState;
  redirectUrl: string;
  deviceId?: string;
  createdAt: string;
  expiresAt: string;
  completedAt?: string;
  livenessScore?: number;
  faceMatchScore?: number;
}

/** An Aadhaar OTP session (assumed endpoint): the code "sent" to the Aadhaar-linked mobile. */
export interface AadhaarOtpRecord {
  referenceId: string;
  userId: string;
  aadhaarNumber: string;
  code: string;
  attempts: number;
  status: 'active' | 'used';
  expiresAt: string;
}

/** A presigned upload (spec 4.10): issued, then uploaded to the mock's storage, then confirmed. */
export interface UploadRecord {
  s3Key: string;
  userId: string;
  documentType: string;
  fileName: string;
  mimeType: string;
  fileSize: number;
  status: 'issued' | 'uploaded' | 'confirmed';
  expiresAt: string;
  uploadedAt?: string;
}

/** A penny-drop outcome a test chose for a user's next bank verification. */
export type BankOutcome = 'verified' | 'penny_drop_failed' | 'name_mismatch' | 'bank_error';

/** A UPI outcome a test chose for a user's next UPI verification. */
export type UpiOutcome = 'verified' | 'name_mismatch' | 'invalid_vpa' | 'provider_error';

/** The KYC collections. */
export interface KycSlice {
  byUserId: Record<string, KycRecord>;
  digilockerSessions: Record<string, DigilockerSessionRecord>;
  faceSessions: Record<string, FaceSessionRecord>;
  aadhaarOtps: Record<string, AadhaarOtpRecord>;
  uploads: Record<string, UploadRecord>;
  /** Outcomes chosen by `helpers.kyc.chooseOutcome`, by user id; each is used by one verification. */
  nextOutcomes: Record<string, { bank?: BankOutcome; upi?: UpiOutcome }>;
}

export function emptyKyc(): KycSlice {
  return {
    byUserId: keyed(),
    digilockerSessions: keyed(),
    faceSessions: keyed(),
    aadhaarOtps: keyed(),
    uploads: keyed(),
    nextOutcomes: keyed(),
  };
}
