import { describe, expect, it } from 'vitest';
import { SANDBOX_KYC } from '../../../../mock/index.js';
import { successEnvelope } from '../../../../src/schemas/common.js';
import { UpiInvalidVpa, UpiVerification } from '../../../../src/schemas/kyc/upi.js';
import { alreadyVerified, failure, kycServer } from './support.js';

const mock = kycServer();

describe('4.8, 7.4: UPI outcomes and errors', () => {
  it('4.8: a matching name verifies; titles and word order are tolerated', async () => {
    const { client, userId } = await mock.use({ mobile: '9876543210', name: 'Smt. Rao Asha' });
    expect(await client.kyc.upi.verify(userId, { upiId: '9876543210@ybl' })).toEqual({
      verified: true,
      name: 'SMT. RAO ASHA',
      bankName: 'Yes Bank',
      nameMatchScore: 100,
      message: 'UPI ID verified',
    });
  });

  it('4.8: a name under 70 answers success true, verified false, with the score', async () => {
    const { client, userId } = await mock.use();
    const r = await client.kyc.upi.verify(userId, { upiId: SANDBOX_KYC.upi.otherHolder });
    expect(UpiVerification.parse(r)).toMatchObject({ verified: false, name: 'VIKRAM SINGH', bankName: null });
    expect(r.nameMatchScore).toBeLessThan(70);
  });

  it('1.3, 4.8: an invalid VPA answers verified false with explicit nulls', async () => {
    const { service, userId } = await mock.use();
    const raw = await fetch(`${service.baseUrl}/v2/users/${userId}/kyc/upi/verify`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${service.sandboxKey}` },
      body: JSON.stringify({ upiId: SANDBOX_KYC.upi.invalidVpa }),
    });
    const body = successEnvelope(UpiInvalidVpa).parse(await raw.json());
    expect(body.data).toMatchObject({ verified: false, name: null, bankName: null, nameMatchScore: null });
  });

  it('7.4: VALIDATION_ERROR (400) for a malformed UPI ID, ALREADY_VERIFIED (409), VERIFICATION_FAILED (500)', async () => {
    const { client, userId } = await mock.use();
    const path = `/v2/users/${userId}/kyc/upi/verify`;
    await failure(client.request({ method: 'POST', path, body: { upiId: 'not-a-vpa' } }), {
      status: 400,
      shape: 'A',
      error: 'Bad Request',
      code: 'VALIDATION_ERROR',
    });
    await failure(client.kyc.upi.verify(userId, { upiId: SANDBOX_KYC.upi.providerError }), {
      status: 500,
      shape: 'A',
      error: 'Internal Server Error',
      code: 'VERIFICATION_FAILED',
    });
    await client.kyc.upi.verify(userId, { upiId: 'asha@oksbi' });
    await alreadyVerified(client.kyc.upi.verify(userId, { upiId: 'asha@oksbi' }));
  });
});
