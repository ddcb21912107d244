/** The KYC steps and status (spec 2.7, 2.8, 4.4 to 4.11). */
import {
  AadhaarOtpSendRequest,
  AadhaarOtpSent,
  AadhaarOtpVerifyRequest,
  AadhaarVerification,
} from '../schemas/kyc/aadhaar.js';
import { BankVerification, BankVerifyRequest } from '../schemas/kyc/bank.js';
import { Declaration, DeclarationRequest } from '../schemas/kyc/declaration.js';
import {
  DigilockerInitRequest,
  DigilockerSession,
  DigilockerStatus,
  DigilockerStatusQuery,
} from '../schemas/kyc/digilocker.js';
import {
  DocumentConfirmRequest,
  DocumentRecord,
  DocumentUploadUrl,
  DocumentUploadUrlRequest,
} from '../schemas/kyc/document.js';
import { FaceInitRequest, FaceSession, FaceVerification, FaceVerifyRequest } from '../schemas/kyc/face.js';
import { PanVerification, PanVerifyRequest } from '../schemas/kyc/pan.js';
import { PassportVerification, PassportVerifyRequest } from '../schemas/kyc/passport.js';
import { Profile, ProfileSubmitRequest } from '../schemas/kyc/profile.js';
import { ExtendedStatus, KycRefresh, KycStatus } from '../schemas/kyc/status.js';
import { UpiVerification, UpiVerifyRequest } from '../schemas/kyc/upi.js';
import type { Endpoint, EndpointContract } from './endpoint.js';

/** The kyc endpoints' calls, keyed by operation ID. */
export const KYC_ENDPOINTS = {
  'kyc.status': {
    method: 'GET',
    path: '/v2/users/{userId}/kyc/status',
    data: KycStatus,
  },
  'kyc.refresh': {
    method: 'POST',
    path: '/v2/users/{userId}/kyc/refresh',
    data: KycRefresh,
  },
  'kyc.extendedStatus': {
    method: 'GET',
    path: '/v2/users/{userId}/kyc/extended-status',
    data: ExtendedStatus,
  },
  'kyc.digilocker.init': {
    method: 'POST',
    path: '/v2/users/{userId}/kyc/digilocker/init',
    data: DigilockerSession,
    body: DigilockerInitRequest,
  },
  'kyc.digilocker.status': {
    method: 'GET',
    path: '/v2/users/{userId}/kyc/digilocker/status',
    data: DigilockerStatus,
    query: DigilockerStatusQuery,
  },
  'kyc.aadhaar.sendOtp': {
    method: 'POST',
    path: '/v2/users/{userId}/kyc/aadhaar/otp/send',
    data: AadhaarOtpSent,
    body: AadhaarOtpSendRequest,
  },
  'kyc.aadhaar.verifyOtp': {
    method: 'POST',
    path: '/v2/users/{userId}/kyc/aadhaar/otp/verify',
    data: AadhaarVerification,
    body: AadhaarOtpVerifyRequest,
  },
  'kyc.pan.verify': {
    method: 'POST',
    path: '/v2/users/{userId}/kyc/pan/verify',
    data: PanVerification,
    body: PanVerifyRequest,
  },
  'kyc.passport.verify': {
    method: 'POST',
    path: '/v2/users/{userId}/kyc/passport/verify',
    data: PassportVerification,
    shape: 'B',
    body: PassportVerifyRequest,
  },
  'kyc.bank.verify': {
    method: 'POST',
    path: '/v2/users/{userId}/kyc/bank/verify',
    data: BankVerification,
    shape: 'B',
    body: BankVerifyRequest,
  },
  'kyc.upi.verify': {
    method: 'POST',
    path: '/v2/users/{userId}/kyc/upi/verify',
    data: UpiVerification,
    body: UpiVerifyRequest,
  },
  'kyc.face.init': {
    method: 'POST',
    path: '/v2/users/{userId}/kyc/face/init',
    data: FaceSession,
    body: FaceInitRequest,
  },
  'kyc.face.verify': {
    method: 'POST',
    path: '/v2/users/{userId}/kyc/face/verify',
    data: FaceVerification,
    body: FaceVerifyRequest,
  },
  'kyc.document.createUploadUrl': {
    method: 'POST',
    path: '/v2/users/{userId}/kyc/document/upload-url',
    data: DocumentUploadUrl,
    body: DocumentUploadUrlRequest,
  },
  'kyc.document.confirm': {
    method: 'POST',
    path: '/v2/users/{userId}/kyc/document',
    data: DocumentRecord,
    body: DocumentConfirmRequest,
  },
  'kyc.declaration.submit': {
    method: 'POST',
    path: '/v2/users/{userId}/kyc/declaration',
    data: Declaration,
    shape: 'B',
    body: DeclarationRequest,
  },
  'kyc.profile.submit': {
    method: 'POST',
    path: '/v2/users/{userId}/kyc/profile',
    data: Profile,
    body: ProfileSubmitRequest,
  },
} as const satisfies Record<string, Endpoint>;

/** The kyc endpoints' contract, keyed as the calls are. */
export const KYC_CONTRACTS: Record<keyof typeof KYC_ENDPOINTS, EndpointContract> = {
  'kyc.status': {
    summary: "The user's KYC status record",
    section: '2.7',
    errors: ['USER_NOT_FOUND'],
  },
  'kyc.refresh': {
    summary: 'Settle the KYC aggregate after the final step',
    section: '4.5',
    errors: ['USER_NOT_FOUND'],
  },
  'kyc.extendedStatus': {
    summary: 'The extended KYC status, step by step',
    section: '2.8',
    errors: ['USER_NOT_FOUND'],
  },
  'kyc.digilocker.init': {
    summary: 'Open a document-locker consent session',
    section: '4.4',
    errors: ['USER_NOT_FOUND', 'ALREADY_VERIFIED', 'SERVICE_UNAVAILABLE'],
    assumptions: ['Document-locker init `deviceId`'],
  },
  'kyc.digilocker.status': {
    summary: 'Poll a document-locker session',
    section: '4.4',
    alsoShapeB: true,
    errors: ['USER_NOT_FOUND', 'SESSION_NOT_FOUND'],
    assumptions: ['Document-locker outcomes'],
  },
  'kyc.aadhaar.sendOtp': {
    summary: 'Send the Aadhaar OTP',
    section: '7.3',
    errors: ['USER_NOT_FOUND', 'ALREADY_VERIFIED'],
    assumptions: ['Aadhaar OTP', 'Aadhaar OTP errors'],
  },
  'kyc.aadhaar.verifyOtp': {
    summary: 'Verify the Aadhaar OTP',
    section: '7.3',
    errors: ['USER_NOT_FOUND', 'AADHAAR_OTP_EXPIRED', 'INVALID_OTP', 'NAME_MISMATCH'],
    assumptions: ['Aadhaar OTP', 'Aadhaar OTP errors'],
  },
  'kyc.pan.verify': {
    summary: 'Verify a PAN against the Aadhaar name',
    section: '7.3',
    errors: ['USER_NOT_FOUND', 'PAN_INVALID', 'PAN_NOT_FOUND', 'NAME_MISMATCH'],
    assumptions: ['PAN verification', 'PAN checks'],
  },
  'kyc.passport.verify': {
    summary: 'Verify a passport (base64 file)',
    section: '4.6',
    errors: ['Already Verified', 'Verification Failed', 'Bad Request'],
    assumptions: ['Passport'],
  },
  'kyc.bank.verify': {
    summary: 'Verify a bank account by penny drop and name match',
    section: '4.7',
    errors: [
      'Validation Error',
      'Verification Failed',
      'Name Mismatch',
      'Not Found',
      'Internal Server Error',
    ],
    assumptions: ['Bank name match'],
  },
  'kyc.upi.verify': {
    summary: 'Verify a UPI ID',
    section: '4.8',
    errors: ['USER_NOT_FOUND', 'VALIDATION_ERROR', 'ALREADY_VERIFIED', 'VERIFICATION_FAILED'],
  },
  'kyc.face.init': {
    summary: 'Open a face liveness session',
    section: '4.9',
    errors: ['USER_NOT_FOUND', 'ALREADY_VERIFIED'],
    assumptions: ['Face sessions'],
  },
  'kyc.face.verify': {
    summary: 'Read the result of a face liveness session',
    section: '4.9',
    errors: ['USER_NOT_FOUND', 'SESSION_NOT_FOUND', 'ALREADY_VERIFIED', 'SESSION_EXPIRED'],
    assumptions: ['Face sessions'],
  },
  'kyc.document.createUploadUrl': {
    summary: 'Get a presigned URL to upload a document to',
    section: '4.10',
    errors: ['USER_NOT_FOUND'],
    assumptions: ['Document upload'],
  },
  'kyc.document.confirm': {
    summary: 'Confirm an uploaded document',
    section: '4.10',
    errors: ['USER_NOT_FOUND'],
    assumptions: ['Document upload'],
  },
  'kyc.declaration.submit': {
    summary: 'Submit the KYC declaration (occupation, income, PEP)',
    section: '4.11',
    errors: ['KYC Rejected'],
    assumptions: ['PEP details field', 'Declaration record'],
  },
  'kyc.profile.submit': {
    summary: 'Submit the extended profile',
    section: '4',
    errors: ['USER_NOT_FOUND'],
    assumptions: ['Extended profile'],
  },
};
