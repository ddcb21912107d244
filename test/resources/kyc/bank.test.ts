import { describe, expect, it } from 'vitest';
import { bankNameMismatch, UnprocessableEntityError } from '../../../src/index.js';
import { fail, ok, route, useClient } from '../../support/msw.js';
import { postsAndReads } from './support.js';

// The penny drop and UPI: both match a name to the Aadhaar name at 70%.

const client = useClient();
const bankParams = {
  accountNumber: '123456789012',
  ifsc: 'HDFC0001234',
  accountHolderName: 'Asha Rao',
  deviceId: 'fp-1',
};

describe('kyc.bank.verify', () => {
  it('POSTs the account and reads the verified account (with branch)', async () => {
    const answer = {
      verified: true,
      bankName: 'HDFC Bank',
      branch: 'MG Road',
      accountHolderName: 'ASHA RAO',
      maskedAccountNumber: 'XXXXXXXX9012',
      ifsc: 'HDFC0001234',
    };
    await postsAndReads('bank/verify', bankParams, answer, (userId, params) =>
      client.kyc.bank.verify(userId, params),
    );
  });

  it('reads an answer without branch (omitted when the bank returns none)', async () => {
    route(
      'post',
      '/v2/users/:id/kyc/bank/verify',
      ok({
        verified: true,
        bankName: 'SBI',
        accountHolderName: 'ASHA RAO',
        maskedAccountNumber: 'XXXX9012',
        ifsc: 'SBIN0001234',
      }),
    );
    expect((await client.kyc.bank.verify('usr_1', bankParams)).branch).toBeUndefined();
  });

  it('Name Mismatch: throws with expected, found and matchScore', async () => {
    route(
      'post',
      '/v2/users/:id/kyc/bank/verify',
      fail(422, {
        success: false,
        error: 'Name Mismatch',
        message: 'Account holder name does not match the Aadhaar name',
        data: { expected: 'Asha Rao', found: 'R K Sharma', matchScore: 31 },
      }),
    );
    const error = await client.kyc.bank.verify('usr_1', bankParams).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error).toMatchObject({ code: 'NAME_MISMATCH', matchScore: 31 });
    expect(bankNameMismatch(error)).toEqual({ expected: 'Asha Rao', found: 'R K Sharma', matchScore: 31 });
  });

  it("Verification Failed (penny drop failed) reads as 7.3's BANK_VERIFICATION_FAILED, not a name mismatch", async () => {
    route(
      'post',
      '/v2/users/:id/kyc/bank/verify',
      fail(422, { success: false, error: 'Verification Failed', message: 'Penny drop failed' }),
    );
    const error = await client.kyc.bank.verify('usr_1', bankParams).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BANK_VERIFICATION_FAILED', error: 'Verification Failed' });
    expect(bankNameMismatch(error)).toBeUndefined();
  });
});
