/** The users and their mobile and email OTP (spec 2.3, 4.3). */
import { User, UserCreateRequest } from '../schemas/users.js';
import { EmailConfirmRequest, EmailOtpSent, EmailVerification } from '../schemas/verification/email.js';
import { MobileConfirmRequest, MobileOtpSent, MobileVerification } from '../schemas/verification/mobile.js';
import { endpoint } from './endpoint.js';

const OTP_SEND = ['USER_NOT_FOUND', 'ALREADY_VERIFIED', 'TOO_MANY_REQUESTS'];
const OTP_CONFIRM = ['USER_NOT_FOUND', 'ALREADY_VERIFIED', 'NO_OTP_FOUND', 'MAX_ATTEMPTS', 'INVALID_OTP'];

/** The users endpoints, keyed by operation ID. */
export const USER_ENDPOINTS = {
  'users.create': endpoint({
    method: 'POST',
    path: '/v2/users',
    summary: 'Create a user identified by an Indian mobile number',
    section: '2.3',
    data: User,
    status: 201,
    errors: ['USER_EXISTS'],
    assumptions: ['Create a user'],
    body: UserCreateRequest,
    creates: { kind: 'user', field: 'userId' },
  }),
  'users.mobile.sendOtp': endpoint({
    method: 'POST',
    path: '/v2/users/{userId}/verify/mobile/send',
    summary: "Send a 6-digit OTP to the user's mobile",
    section: '4.3',
    data: MobileOtpSent,
    errors: OTP_SEND,
    shape: 'B',
  }),
  'users.mobile.confirm': endpoint({
    method: 'POST',
    path: '/v2/users/{userId}/verify/mobile/confirm',
    summary: 'Confirm the mobile OTP',
    section: '4.3',
    data: MobileVerification,
    errors: OTP_CONFIRM,
    shape: 'B',
    body: MobileConfirmRequest,
  }),
  'users.email.sendOtp': endpoint({
    method: 'POST',
    path: '/v2/users/{userId}/verify/email/send',
    summary: "Send a 6-digit OTP to the user's email",
    section: '4.3',
    data: EmailOtpSent,
    errors: [...OTP_SEND, 'NO_EMAIL'],
    shape: 'B',
  }),
  'users.email.confirm': endpoint({
    method: 'POST',
    path: '/v2/users/{userId}/verify/email/confirm',
    summary: 'Confirm the email OTP',
    section: '4.3',
    data: EmailVerification,
    errors: OTP_CONFIRM,
    assumptions: ['Confirm the email OTP'],
    shape: 'B',
    body: EmailConfirmRequest,
  }),
};
