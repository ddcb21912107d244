import { describe, expect, it } from 'vitest';
import { isVerified, kycRequirements } from '../../src/index.js';
import { ok, only, route, useClient } from '../support/msw.js';
import { postsAndReads, profileFields, verifiedAadhaar, verifiedPan } from './kyc/support.js';

const client = useClient();

describe('kyc.status', () => {
  it('GETs the record and keeps omitted fields omitted (a pending digilocker has no verified key)', async () => {
    const record = {
      level: 'none',
      status: 'in_progress',
      digilocker: { status: 'pending' },
      aadhaar: verifiedAadhaar,
      pan: verifiedPan,
      passport: { verified: false },
      face: { verified: false },
      upi: { verified: false },
      bank: { verified: false },
    };
    const seen = route('get', '/v2/users/:id/kyc/status', ok(record));
    const result = await client.kyc.status('usr_1');
    expect(only(seen, false)).toMatchObject({
      method: 'GET',
      path: '/v2/users/usr_1/kyc/status',
      body: undefined,
    });
    expect(result).toEqual(record);
    expect('verified' in (result.digilocker ?? {})).toBe(false);
    expect(isVerified(result.digilocker)).toBe(false);
    expect(kycRequirements(result, { indian: true })).toEqual({
      complete: false,
      missing: ['bank'],
      optional: { face: false, upi: false },
    });
  });

  it('reads a minimal record (blocks absent)', async () => {
    route('get', '/v2/users/:id/kyc/status', ok({ level: 'none', status: 'pending' }));
    const result = await client.kyc.status('usr_1');
    expect(kycRequirements(result).missing).toEqual(['aadhaar', 'pan', 'bank']);
  });
});

describe('kyc.refresh', () => {
  it('POSTs with no body and reads previous and current', async () => {
    const answer = {
      previous: { level: 'none', status: 'in_progress' },
      current: { level: 'basic', status: 'verified' },
    };
    await postsAndReads('refresh', undefined, answer, (userId) => client.kyc.refresh(userId));
  });
});

describe('kyc.extendedStatus', () => {
  it('GETs the extended status with its three blocks', async () => {
    const answer = {
      complete: false,
      missing: ['document'],
      isPepRejected: false,
      profile: { submitted: true, ...profileFields },
      document: { submitted: false },
      declaration: {
        submitted: true,
        occupation: 'salaried',
        incomeRange: '10l_to_25l',
        isPep: false,
        submittedAt: '2024-01-15T10:45:00Z',
      },
    };
    const seen = route('get', '/v2/users/:id/kyc/extended-status', ok(answer));
    expect(await client.kyc.extendedStatus('usr_1')).toEqual(answer);
    expect(only(seen, false)).toMatchObject({ path: '/v2/users/usr_1/kyc/extended-status' });
  });
});
