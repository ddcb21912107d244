import { describe, expect, it } from 'vitest';
import { SANDBOX_KYC } from '../../../../mock/index.js';
import { BankNameMismatch } from '../../../../src/schemas/kyc/bank.js';
import { failure, kycServer } from './support.js';

const mock = kycServer();
const BANK = { accountNumber: '123456789012', ifsc: 'HDFC0001234', accountHolderName: 'Asha Rao' };

describe('4.7, 7.3, 7.4: bank errors (shape B)', () => {
  it('4.7: Name Mismatch (422) with expected, found and matchScore', async () => {
    const { client, userId } = await mock.use();
    const error = await failure(
      client.kyc.bank.verify(userId, { ...BANK, accountNumber: SANDBOX_KYC.bank.otherHolder }),
      {
        status: 422,
        shape: 'B',
        error: 'Name Mismatch',
      },
    );
    const data = BankNameMismatch.parse(error.data);
    expect(data).toMatchObject({ expected: 'Asha Rao', found: 'Vikram Singh' });
    expect(data.matchScore).toBeLessThan(70);
    expect(error.matchScore).toBe(data.matchScore);
    expect(error.code).toBe('NAME_MISMATCH');
  });

  it('4.7: a holder name sent that differs from the Aadhaar name is a Name Mismatch too', async () => {
    const { client, userId } = await mock.use();
    await failure(client.kyc.bank.verify(userId, { ...BANK, accountHolderName: 'Ravi Kumar' }), {
      status: 422,
      shape: 'B',
      error: 'Name Mismatch',
    });
  });

  it('7.3, 7.4: a failed penny drop is Verification Failed (422); a bank error Internal Server Error (500)', async () => {
    const { client, userId } = await mock.use();
    await failure(
      client.kyc.bank.verify(userId, { ...BANK, accountNumber: SANDBOX_KYC.bank.pennyDropFails }),
      {
        status: 422,
        shape: 'B',
        error: 'Verification Failed',
        code: 'BANK_VERIFICATION_FAILED',
      },
    );
    await failure(
      client.kyc.bank.verify(userId, { ...BANK, accountNumber: SANDBOX_KYC.bank.providerError }),
      {
        status: 500,
        shape: 'B',
        error: 'Internal Server Error',
      },
    );
    expect(await client.kyc.status(userId)).toMatchObject({ bank: { verified: false }, status: 'pending' });
  });

  it('7.4: Validation Error (400) for a bad account number or IFSC; Not Found (404) for an unknown user', async () => {
    const { client, userId } = await mock.use();
    const error = await failure(
      client.request({
        method: 'POST',
        path: `/v2/users/${userId}/kyc/bank/verify`,
        body: { ...BANK, accountNumber: '12ab', ifsc: 'HDFC1234' },
      }),
      { status: 400, shape: 'B', error: 'Validation Error' },
    );
    expect((error.body as { details: { field: string }[] }).details.map((d) => d.field)).toEqual([
      'accountNumber',
      'ifsc',
    ]);
    await failure(client.kyc.bank.verify('usr_nope', BANK), { status: 404, shape: 'B', error: 'Not Found' });
  });
});
