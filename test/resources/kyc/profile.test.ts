import { describe, expect, it } from 'vitest';
import { makeClient, ok, only, route, useServer } from '../../support/msw.js';

useServer();
const client = makeClient();

describe('kyc.profile.submit (assumed endpoint)', () => {
  it('POSTs the profile and reads the record', async () => {
    const params = {
      dateOfBirth: '1990-01-01',
      nationality: 'IN',
      city: 'Bengaluru',
      addressLine: '1 MG Road',
      state: 'Karnataka',
      pincode: '560001',
      deviceId: 'fp-1',
    };
    const profile = {
      profileId: 'prof_1',
      dateOfBirth: '1990-01-01',
      nationality: 'IN',
      city: 'Bengaluru',
      submittedAt: '2024-01-15T10:42:00Z',
    };
    const seen = route('post', '/v2/users/:id/kyc/profile', ok(profile));
    expect(await client.kyc.profile.submit('usr_1', params)).toEqual(profile);
    expect(only(seen, true)).toMatchObject({ path: '/v2/users/usr_1/kyc/profile', body: params });
  });
});
