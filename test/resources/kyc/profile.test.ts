import { describe, it } from 'vitest';
import { useClient } from '../../support/msw.js';
import { postsAndReads, profileFields } from './support.js';

const client = useClient();

describe('kyc.profile.submit (assumed endpoint)', () => {
  it('POSTs the profile and reads the record', async () => {
    await postsAndReads(
      'profile',
      {
        dateOfBirth: '1990-01-01',
        nationality: 'IN',
        city: 'Bengaluru',
        addressLine: '1 MG Road',
        state: 'Karnataka',
        pincode: '560001',
        deviceId: 'fp-1',
      },
      { profileId: 'prof_1', ...profileFields },
      (userId, params) => client.kyc.profile.submit(userId, params),
    );
  });
});
