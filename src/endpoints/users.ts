/** The users and their mobile and email OTP (spec 2.3, 4.3). */
import { User, UserCreateRequest } from '../schemas/users.js';
import { EmailConfirmRequest, EmailOtpSent, EmailVerification } from '../schemas/verification/email.js';
import { MobileConfirmRequest, MobileOtpSent, MobileVerification } from '../schemas/verification/mobile.js';
import { type Endpoint, type EndpointContract, errorCodes } from './endpoint.js';

const OTP_SEND = ['USER_NOT_FOUND', 'ALREADY_VERIFIED', 'TOO_MANY_REQUESTS'];
const OTP_CONFIRM = ['USER_NOT_FOUND', 'ALREADY_VERIFIED', 'NO_OTP_FOUND', 'MAX_ATTEMPTS', 'INVALID_OTP'];

/** The users endpoints' calls, keyed by operation ID. */
export const USER_ENDPOINTS = {
  'users.create': {
    method: 'POST',
    path: '/v2/users',
    data: User,
    status: 201,
    body: UserCreateRequest,
  },
  'users.mobile.sendOtp': {
    method: 'POST',
    path: '/v2/users/{userId}/verify/mobile/send',
    data: MobileOtpSent,
    shape: 'B',
  },
  'users.mobile.confirm': {
    method: 'POST',
    path: '/v2/users/{userId}/verify/mobile/confirm',
    data: MobileVerification,
    shape: 'B',
    body: MobileConfirmRequest,
  },
  'users.email.sendOtp': {
    method: 'POST',
    path: '/v2/users/{userId}/verify/email/send',
    data: EmailOtpSent,
    shape: 'B',
  },
  'users.email.confirm': {
    method: 'POST',
    path: '/v2/users/{userId}/verify/email/confirm',
    data: EmailVerification,
    shape: 'B',
    body: EmailConfirmRequest,
  },
} as const satisfies Record<string, Endpoint>;

/** The users endpoints' contract, keyed as the calls are. */
export const USER_CONTRACTS: Record<keyof typeof USER_ENDPOINTS, EndpointContract> = {
  'users.create': {
    summary: 'Create a user identified by an Indian mobile number',
    section: '2.3',
    errors: ['USER_EXISTS'],
    assumptions: ['Create a user'],
    creates: { kind: 'user', field: 'userId' },
  },
  'users.mobile.sendOtp': {
    summary: "Send a 6-digit OTP to the user's mobile",
    section: '4.3',
    errors: OTP_SEND,
  },
  'users.mobile.confirm': {
    summary: 'Confirm the mobile OTP',
    section: '4.3',
    errors: OTP_CONFIRM,
  },
  'users.email.sendOtp': {
    summary: "Send a 6-digit OTP to the user's email",
    section: '4.3',
    errors: /* @__PURE__ */ errorCodes(OTP_SEND, 'NO_EMAIL'),
  },
  'users.email.confirm': {
    summary: 'Confirm the email OTP',
    section: '4.3',
    errors: OTP_CONFIRM,
    assumptions: ['Confirm the email OTP'],
  },
};
