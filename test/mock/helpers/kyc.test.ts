import { describe, expect, it } from 'vitest';
import { MockHelperError, MockTransitionError } from '../../../mock/index.js';
import { failure, kycServer } from '../operations/kyc/support.js';

const mock = kycServer();
const BANK = { accountNumber: '123456789012', ifsc: 'SBIN0000000', accountHolderName: 'Asha Rao' };

describe('4.7, 4.8 (helpers): choosing penny-drop and UPI outcomes', () => {
  it('4.7: each chosen bank outcome answers once, then the names decide again', async () => {
    const { service, client, userId } = await mock.use();
    const choose = (outcome: 'penny_drop_failed' | 'name_mismatch' | 'bank_error') =>
      service.helpers.kyc.chooseOutcome({ userId, step: 'bank', outcome });
    choose('penny_drop_failed');
    await failure(client.kyc.bank.verify(userId, BANK), {
      status: 422,
      shape: 'B',
      error: 'Verification Failed',
    });
    choose('name_mismatch');
    await failure(client.kyc.bank.verify(userId, BANK), { status: 422, shape: 'B', error: 'Name Mismatch' });
    choose('bank_error');
    await failure(client.kyc.bank.verify(userId, BANK), {
      status: 500,
      shape: 'B',
      error: 'Internal Server Error',
    });
    // 4.7: an IFSC with branch code 000000 has no branch, so `branch` is omitted.
    expect(await client.kyc.bank.verify(userId, BANK)).toEqual({
      verified: true,
      bankName: 'State Bank of India',
      accountHolderName: 'ASHA RAO',
      maskedAccountNumber: 'XXXXXXXX9012',
      ifsc: 'SBIN0000000',
    });
  });

  it('4.7: outcome verified passes whatever holder name was sent', async () => {
    const { service, client, userId } = await mock.use();
    service.helpers.kyc.chooseOutcome({ userId, step: 'bank', outcome: 'verified' });
    expect(
      (await client.kyc.bank.verify(userId, { ...BANK, accountHolderName: 'Someone Else' })).verified,
    ).toBe(true);
  });

  it('4.8: chosen UPI outcomes: invalid VPA (nulls), name mismatch, provider error; refused once UPI is verified', async () => {
    const { service, client, userId } = await mock.use();
    const upiId = 'asha@okaxis';
    service.helpers.kyc.chooseOutcome({ userId, step: 'upi', outcome: 'invalid_vpa' });
    expect(await client.kyc.upi.verify(userId, { upiId })).toMatchObject({
      verified: false,
      name: null,
      nameMatchScore: null,
    });
    service.helpers.kyc.chooseOutcome({ userId, step: 'upi', outcome: 'name_mismatch' });
    expect(await client.kyc.upi.verify(userId, { upiId })).toMatchObject({
      verified: false,
      name: 'VIKRAM SINGH',
      bankName: 'Axis Bank',
    });
    service.helpers.kyc.chooseOutcome({ userId, step: 'upi', outcome: 'provider_error' });
    await failure(client.kyc.upi.verify(userId, { upiId }), {
      status: 500,
      shape: 'A',
      error: 'Internal Server Error',
      code: 'VERIFICATION_FAILED',
    });
    expect((await client.kyc.upi.verify(userId, { upiId })).verified).toBe(true);
    expect(() => service.helpers.kyc.chooseOutcome({ userId, step: 'upi', outcome: 'invalid_vpa' })).toThrow(
      MockTransitionError,
    );
    expect(() =>
      service.helpers.kyc.chooseOutcome({ userId: 'usr_nope', step: 'bank', outcome: 'verified' }),
    ).toThrow(MockHelperError);
  });
});
