// What the KYC resource tests share: the POST-and-read happy path each step starts with, and the steps' answers
// that `kyc.status` and `kyc.extendedStatus` read back as blocks.
import { expect } from 'vitest';
import { ok, only, route } from '../../support/msw.js';

/** Aadhaar OTP verified: `kyc.aadhaar.verifyOtp`'s answer and the status record's `aadhaar` block. */
export const verifiedAadhaar = {
  verified: true,
  maskedNumber: 'XXXX-XXXX-1234',
  nameOnAadhaar: 'Asha Rao',
  verifiedAt: '2024-01-15T10:35:00Z',
};

/** PAN verified: `kyc.pan.verify`'s answer and the status record's `pan` block. */
export const verifiedPan = {
  verified: true,
  maskedNumber: 'XXXXX1234X',
  nameOnPan: 'ASHA RAO',
  nameMatchScore: 96,
  verifiedAt: '2024-01-15T10:36:00Z',
};

/** The submitted profile's fields, in `kyc.profile.submit`'s record and the extended status's `profile` block. */
export const profileFields = {
  dateOfBirth: '1990-01-01',
  nationality: 'IN',
  city: 'Bengaluru',
  submittedAt: '2024-01-15T10:42:00Z',
};

/**
 * Scripts `answer` for `POST /v2/users/:id/kyc/<step>`, runs `call` for user `usr_1` with `params`, and asserts the
 * one request (a mutating request's headers, the user's path, `params` as the body) and that the call read `answer`
 * as it came. Returns what the call read, for a test's own further checks.
 */
export async function postsAndReads<P, R>(
  step: string,
  params: P,
  answer: unknown,
  call: (userId: string, params: P) => PromiseLike<R>,
): Promise<R> {
  const seen = route('post', `/v2/users/:id/kyc/${step}`, ok(answer));
  const result = await call('usr_1', params);
  expect(only(seen, true)).toMatchObject({
    method: 'POST',
    path: `/v2/users/usr_1/kyc/${step}`,
    body: params,
  });
  expect(result).toEqual(answer);
  return result;
}
