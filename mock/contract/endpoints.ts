/**
 * What the OpenAPI document says of each `/v2` route beyond the route table: its operation id (the client
 * method's path, `transactions.create`), the shared schema of its success `data`, its query schema, the error
 * identifiers the spec lists for it (7.3, 7.4) and the `docs/assumptions.md` topic where the spec is silent.
 * Keyed `METHOD /path` as the route table declares it; the generator refuses a route without an entry and an
 * entry without a route, so the table and the routes cannot drift apart.
 */
import type * as z from 'zod/mini';
import { Account, ActivityList, ActivityQuery, Credit, DeveloperFee } from '../../src/schemas/account.js';
import { AadhaarOtpSent, AadhaarVerification } from '../../src/schemas/kyc/aadhaar.js';
import { BankVerification } from '../../src/schemas/kyc/bank.js';
import { Declaration } from '../../src/schemas/kyc/declaration.js';
import {
  DigilockerSession,
  DigilockerStatus,
  DigilockerStatusQuery,
} from '../../src/schemas/kyc/digilocker.js';
import { DocumentRecord, DocumentUploadUrl } from '../../src/schemas/kyc/document.js';
import { FaceSession, FaceVerification } from '../../src/schemas/kyc/face.js';
import { PanVerification } from '../../src/schemas/kyc/pan.js';
import { PassportVerification } from '../../src/schemas/kyc/passport.js';
import { Profile } from '../../src/schemas/kyc/profile.js';
import { ExtendedStatus, KycRefresh, KycStatus } from '../../src/schemas/kyc/status.js';
import { UpiVerification } from '../../src/schemas/kyc/upi.js';
import { CreatedTransaction, PrefundedTransaction, Transaction } from '../../src/schemas/transactions.js';
import { User } from '../../src/schemas/users.js';
import { EmailOtpSent, EmailVerification } from '../../src/schemas/verification/email.js';
import { MobileOtpSent, MobileVerification } from '../../src/schemas/verification/mobile.js';
import { WebhookEventList, WebhookEventListQuery, WebhookRetry } from '../../src/schemas/webhooks.js';

/** One operation's contract beyond its route. */
export interface OperationSpec {
  /** The client method's path: `transactions.create` is `client.transactions.create`. */
  operationId: string;
  summary: string;
  /** Where the spec describes it. */
  section: string;
  /** The schema of the success envelope's `data`. */
  data: z.ZodMiniType;
  /** The query parameters' schema, for a GET that takes any. */
  query?: z.ZodMiniType;
  /** Success status; default 200 (docs/assumptions.md, "Success status codes"). */
  status?: 201;
  /** The error identifiers the spec (7.3, 7.4) or an assumption lists for it, beyond the common ones. */
  errors: string[];
  /** `docs/assumptions.md` topics deciding what the spec does not show. */
  assumptions?: string[];
  /** The success body carries `pagination` beside `data` (`GET /v2/webhooks`). */
  paginated?: true;
  /** A shape A route that also answers shape B (an ended document-locker session, spec 4.4). */
  alsoShapeB?: true;
}

const OTP_SEND = ['USER_NOT_FOUND', 'ALREADY_VERIFIED', 'TOO_MANY_REQUESTS'];
const OTP_CONFIRM = ['USER_NOT_FOUND', 'ALREADY_VERIFIED', 'NO_OTP_FOUND', 'MAX_ATTEMPTS', 'INVALID_OTP'];
const CREATE = ['USER_NOT_FOUND', 'KYC_INCOMPLETE', 'NO_BANK_ACCOUNT', 'PENDING_TRANSACTION_EXISTS'];

/** Every `/v2` operation, keyed as the route table declares it. */
export const OPERATIONS: Record<string, OperationSpec> = {
  'POST /v2/users': {
    operationId: 'users.create',
    summary: 'Create a user identified by an Indian mobile number',
    section: '2.3',
    data: User,
    status: 201,
    errors: ['USER_EXISTS'],
    assumptions: ['Create a user'],
  },
  'POST /v2/users/:userId/verify/mobile/send': {
    operationId: 'users.mobile.sendOtp',
    summary: "Send a 6-digit OTP to the user's mobile",
    section: '4.3',
    data: MobileOtpSent,
    errors: OTP_SEND,
  },
  'POST /v2/users/:userId/verify/mobile/confirm': {
    operationId: 'users.mobile.confirm',
    summary: 'Confirm the mobile OTP',
    section: '4.3',
    data: MobileVerification,
    errors: OTP_CONFIRM,
  },
  'POST /v2/users/:userId/verify/email/send': {
    operationId: 'users.email.sendOtp',
    summary: "Send a 6-digit OTP to the user's email",
    section: '4.3',
    data: EmailOtpSent,
    errors: [...OTP_SEND, 'NO_EMAIL'],
  },
  'POST /v2/users/:userId/verify/email/confirm': {
    operationId: 'users.email.confirm',
    summary: 'Confirm the email OTP',
    section: '4.3',
    data: EmailVerification,
    errors: OTP_CONFIRM,
    assumptions: ['Confirm the email OTP'],
  },
  'GET /v2/users/:userId/kyc/status': {
    operationId: 'kyc.status',
    summary: "The user's KYC status record",
    section: '2.7',
    data: KycStatus,
    errors: ['USER_NOT_FOUND'],
  },
  'POST /v2/users/:userId/kyc/refresh': {
    operationId: 'kyc.refresh',
    summary: 'Settle the KYC aggregate after the final step',
    section: '4.5',
    data: KycRefresh,
    errors: ['USER_NOT_FOUND'],
  },
  'GET /v2/users/:userId/kyc/extended-status': {
    operationId: 'kyc.extendedStatus',
    summary: 'The extended KYC status, step by step',
    section: '2.8',
    data: ExtendedStatus,
    errors: ['USER_NOT_FOUND'],
  },
  'POST /v2/users/:userId/kyc/digilocker/init': {
    operationId: 'kyc.digilocker.init',
    summary: 'Open a document-locker consent session',
    section: '4.4',
    data: DigilockerSession,
    errors: ['USER_NOT_FOUND', 'ALREADY_VERIFIED', 'SERVICE_UNAVAILABLE'],
    assumptions: ['Document-locker init `deviceId`'],
  },
  'GET /v2/users/:userId/kyc/digilocker/status': {
    operationId: 'kyc.digilocker.status',
    summary: 'Poll a document-locker session',
    section: '4.4',
    data: DigilockerStatus,
    query: DigilockerStatusQuery,
    alsoShapeB: true,
    errors: ['USER_NOT_FOUND', 'SESSION_NOT_FOUND'],
    assumptions: ['Document-locker outcomes'],
  },
  'POST /v2/users/:userId/kyc/aadhaar/otp/send': {
    operationId: 'kyc.aadhaar.sendOtp',
    summary: 'Send the Aadhaar OTP',
    section: '7.3',
    data: AadhaarOtpSent,
    errors: ['USER_NOT_FOUND', 'ALREADY_VERIFIED'],
    assumptions: ['Aadhaar OTP', 'Aadhaar OTP errors'],
  },
  'POST /v2/users/:userId/kyc/aadhaar/otp/verify': {
    operationId: 'kyc.aadhaar.verifyOtp',
    summary: 'Verify the Aadhaar OTP',
    section: '7.3',
    data: AadhaarVerification,
    errors: ['USER_NOT_FOUND', 'AADHAAR_OTP_EXPIRED', 'INVALID_OTP', 'NAME_MISMATCH'],
    assumptions: ['Aadhaar OTP', 'Aadhaar OTP errors'],
  },
  'POST /v2/users/:userId/kyc/pan/verify': {
    operationId: 'kyc.pan.verify',
    summary: 'Verify a PAN against the Aadhaar name',
    section: '7.3',
    data: PanVerification,
    errors: ['USER_NOT_FOUND', 'PAN_INVALID', 'PAN_NOT_FOUND', 'NAME_MISMATCH'],
    assumptions: ['PAN verification', 'PAN checks'],
  },
  'POST /v2/users/:userId/kyc/passport/verify': {
    operationId: 'kyc.passport.verify',
    summary: 'Verify a passport (base64 file)',
    section: '4.6',
    data: PassportVerification,
    errors: ['Already Verified', 'Verification Failed', 'Bad Request'],
    assumptions: ['Passport'],
  },
  'POST /v2/users/:userId/kyc/bank/verify': {
    operationId: 'kyc.bank.verify',
    summary: 'Verify a bank account by penny drop and name match',
    section: '4.7',
    data: BankVerification,
    errors: [
      'Validation Error',
      'Verification Failed',
      'Name Mismatch',
      'Not Found',
      'Internal Server Error',
    ],
    assumptions: ['Bank name match'],
  },
  'POST /v2/users/:userId/kyc/upi/verify': {
    operationId: 'kyc.upi.verify',
    summary: 'Verify a UPI ID',
    section: '4.8',
    data: UpiVerification,
    errors: ['USER_NOT_FOUND', 'VALIDATION_ERROR', 'ALREADY_VERIFIED', 'VERIFICATION_FAILED'],
  },
  'POST /v2/users/:userId/kyc/face/init': {
    operationId: 'kyc.face.init',
    summary: 'Open a face liveness session',
    section: '4.9',
    data: FaceSession,
    errors: ['USER_NOT_FOUND', 'ALREADY_VERIFIED'],
    assumptions: ['Face sessions'],
  },
  'POST /v2/users/:userId/kyc/face/verify': {
    operationId: 'kyc.face.verify',
    summary: 'Read the result of a face liveness session',
    section: '4.9',
    data: FaceVerification,
    errors: ['USER_NOT_FOUND', 'SESSION_NOT_FOUND', 'ALREADY_VERIFIED', 'SESSION_EXPIRED'],
    assumptions: ['Face sessions'],
  },
  'POST /v2/users/:userId/kyc/document/upload-url': {
    operationId: 'kyc.document.createUploadUrl',
    summary: 'Get a presigned URL to upload a document to',
    section: '4.10',
    data: DocumentUploadUrl,
    errors: ['USER_NOT_FOUND'],
    assumptions: ['Document upload'],
  },
  'POST /v2/users/:userId/kyc/document': {
    operationId: 'kyc.document.confirm',
    summary: 'Confirm an uploaded document',
    section: '4.10',
    data: DocumentRecord,
    errors: ['USER_NOT_FOUND'],
    assumptions: ['Document upload'],
  },
  'POST /v2/users/:userId/kyc/declaration': {
    operationId: 'kyc.declaration.submit',
    summary: 'Submit the KYC declaration (occupation, income, PEP)',
    section: '4.11',
    data: Declaration,
    errors: ['KYC Rejected'],
    assumptions: ['PEP details field', 'Declaration record'],
  },
  'POST /v2/users/:userId/kyc/profile': {
    operationId: 'kyc.profile.submit',
    summary: 'Submit the extended profile',
    section: '4',
    data: Profile,
    errors: ['USER_NOT_FOUND'],
    assumptions: ['Extended profile'],
  },
  'GET /v2/account': {
    operationId: 'account.retrieve',
    summary: 'The partner account',
    section: '2.1',
    data: Account,
    errors: [],
  },
  'PUT /v2/account/developer-fee': {
    operationId: 'account.updateDeveloperFee',
    summary: 'Set the developer fee (percent 0 to 0.05)',
    section: '4.1',
    data: DeveloperFee,
    errors: ['VALIDATION_ERROR'],
  },
  'GET /v2/account/activity': {
    operationId: 'account.listActivity',
    summary: 'The most recent transactions',
    section: '2.6',
    data: ActivityList,
    query: ActivityQuery,
    errors: [],
  },
  'GET /v2/account/credit': {
    operationId: 'account.retrieveCredit',
    summary: 'The prefunded credit figures',
    section: '2.5',
    data: Credit,
    errors: [],
    assumptions: ['Prefunded credit'],
  },
  'POST /v2/transactions': {
    operationId: 'transactions.create',
    summary: 'Create a standard transaction: a deposit address and a quote',
    section: '4.2',
    data: CreatedTransaction,
    status: 201,
    errors: [...CREATE, 'AMOUNT_TOO_LOW', 'AMOUNT_TOO_HIGH'],
    assumptions: ['Standard transaction create', 'Partner reference reuse'],
  },
  'POST /v2/transactions/prefunded': {
    operationId: 'transactions.createPrefunded',
    summary: 'Create a prefunded transaction, paid out at once against the credit line',
    section: '4.2',
    data: PrefundedTransaction,
    status: 201,
    errors: [...CREATE, 'PREFUNDED_NOT_ALLOWED', 'CREDIT_LIMIT_EXCEEDED', 'PAYOUT_FAILED'],
    assumptions: ['Prefunded lifecycle (mock)'],
  },
  'GET /v2/transactions/:transactionId': {
    operationId: 'transactions.retrieve',
    summary: 'A transaction, by its ID or the partner reference',
    section: '2.4',
    data: Transaction,
    errors: ['NOT_FOUND'],
    assumptions: ['Transaction read before the legs exist'],
  },
  'GET /v2/webhooks': {
    operationId: 'webhooks.list',
    summary: 'Webhook event records, a page at a time',
    section: '4.12',
    data: WebhookEventList,
    query: WebhookEventListQuery,
    paginated: true,
    errors: [],
    assumptions: ['Webhook list parameters', 'Webhook list order'],
  },
  'POST /v2/webhooks/:eventId/retry': {
    operationId: 'webhooks.retry',
    summary: 'Deliver a webhook event again now',
    section: '4.12',
    data: WebhookRetry,
    errors: ['EVENT_NOT_FOUND'],
    assumptions: ['Webhook retry'],
  },
};
