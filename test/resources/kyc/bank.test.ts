// The penny drop and UPI: both match a name to the Aadhaar name at 70%.
import { describe, expect, it } from 'vitest';
import { bankNameMismatch, UnprocessableEntityError, upiOutcome } from '../../../src/index.js';
import { fail, makeClient, ok, only, route, useServer } from '../../support/msw.js';

useServer();
const client = makeClient();
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
    const seen = route('post', '/v2/users/:id/kyc/bank/verify', ok(answer));
    expect(await client.kyc.bank.verify('usr_1', bankParams)).toEqual(answer);
    expect(only(seen, true)).toMatchObject({
      method: 'POST',
      path: '/v2/users/usr_1/kyc/bank/verify',
      body: bankParams,
    });
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

describe('kyc.upi.verify: the three outcomes, all success: true', () => {
  it('verified (score 70 or more)', async () => {
    const answer = {
      verified: true,
      name: 'ASHA RAO',
      bankName: 'HDFC Bank',
      nameMatchScore: 92,
      message: 'UPI verified',
    };
    const seen = route('post', '/v2/users/:id/kyc/upi/verify', ok(answer));
    const result = await client.kyc.upi.verify('usr_1', { upiId: 'asha@okhdfcbank', deviceId: 'fp-1' });
    expect(only(seen, true)).toMatchObject({
      path: '/v2/users/usr_1/kyc/upi/verify',
      body: { upiId: 'asha@okhdfcbank', deviceId: 'fp-1' },
    });
    expect(result).toEqual(answer);
    expect(upiOutcome(result)).toBe('verified');
  });

  it('name mismatch (score under 70): verified false with the name and score', async () => {
    const answer = {
      verified: false,
      name: 'R K SINGH',
      bankName: 'SBI',
      nameMatchScore: 28,
      message: 'Name does not match',
    };
    route('post', '/v2/users/:id/kyc/upi/verify', ok(answer));
    const result = await client.kyc.upi.verify('usr_1', { upiId: '9876543210@ybl' });
    expect(result).toEqual(answer);
    expect(upiOutcome(result)).toBe('name_mismatch');
  });

  it('invalid VPA: verified false with name, bankName, nameMatchScore all null', async () => {
    const answer = {
      verified: false,
      name: null,
      bankName: null,
      nameMatchScore: null,
      message: 'Invalid VPA',
    };
    route('post', '/v2/users/:id/kyc/upi/verify', ok(answer));
    const result = await client.kyc.upi.verify('usr_1', { upiId: 'nobody@upi' });
    expect(result).toEqual(answer);
    expect(upiOutcome(result)).toBe('invalid_vpa');
  });

  it('VALIDATION_ERROR and ALREADY_VERIFIED stay errors', async () => {
    route(
      'post',
      '/v2/users/:id/kyc/upi/verify',
      fail(400, { error: 'Bad Request', message: 'Bad UPI ID format', code: 'VALIDATION_ERROR' }),
      fail(409, { error: 'Conflict', message: 'UPI already verified', code: 'ALREADY_VERIFIED' }),
    );
    await expect(client.kyc.upi.verify('usr_1', { upiId: 'asha@upi' })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    await expect(client.kyc.upi.verify('usr_1', { upiId: 'asha@upi' })).rejects.toMatchObject({
      code: 'ALREADY_VERIFIED',
    });
  });
});
