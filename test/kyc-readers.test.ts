import { describe, expect, it } from 'vitest';
import { APIError, isVerified, kycRequirements, needsRefresh } from '../src/index.js';
import { bankNameMismatch } from '../src/kyc-readers.js';

describe('isVerified (spec 2.7 rules 1 and 2)', () => {
  it('only verified: true counts; missing verified or block reads false', () => {
    expect(isVerified({ verified: true })).toBe(true);
    expect(isVerified({ verified: false })).toBe(false);
    expect(isVerified({ status: 'pending' } as { verified?: unknown })).toBe(false);
    expect(isVerified(undefined)).toBe(false);
    expect(isVerified({ verified: 'true' })).toBe(false);
  });
});

describe('kycRequirements (spec 2.7 rule 4)', () => {
  const all = {
    level: 'none',
    status: 'in_progress',
    aadhaar: { verified: true },
    pan: { verified: true },
    bank: { verified: true },
  };

  it('Indian users need Aadhaar, PAN and a bank account; face and UPI are optional', () => {
    expect(kycRequirements(all, { indian: true })).toEqual({
      complete: true,
      missing: [],
      optional: { face: false, upi: false },
    });
    expect(kycRequirements({ ...all, pan: {} }, { indian: true })).toMatchObject({
      complete: false,
      missing: ['pan'],
    });
    expect(kycRequirements({ ...all, face: { verified: true } }).optional).toEqual({
      face: true,
      upi: false,
    });
  });

  it('other users need the bank account', () => {
    expect(
      kycRequirements({ level: 'none', status: 'pending', bank: { verified: true } }, { indian: false })
        .complete,
    ).toBe(true);
  });

  it('needsRefresh when everything is met but the status has not moved', () => {
    expect(needsRefresh(all)).toBe(true);
    expect(needsRefresh({ ...all, status: 'verified' })).toBe(false);
    expect(needsRefresh({ ...all, status: 'rejected' })).toBe(false);
    expect(needsRefresh({ ...all, bank: { verified: false } })).toBe(false);
  });
});

describe('bankNameMismatch', () => {
  it('reads the mismatch data of a NAME_MISMATCH error and nothing else', () => {
    const error = APIError.from({
      status: 422,
      body: {
        success: false,
        error: 'Name Mismatch',
        message: 'm',
        data: { expected: 'A', found: 'B', matchScore: 20 },
      },
      headers: new Headers(),
      endpoint: 'POST /v2/users/u/kyc/bank/verify',
    });
    expect(bankNameMismatch(error)).toEqual({ expected: 'A', found: 'B', matchScore: 20 });
    expect(bankNameMismatch(new Error('x'))).toBeUndefined();
  });
});
