import { describe, expect, it } from 'vitest';
import { ErrorBodyB } from '../../../../src/schemas/common.js';
import { DeclarationRejected } from '../../../../src/schemas/kyc/declaration.js';
import { BANK, kycEvents, kycServer, passDigilocker } from './support.js';

const mock = kycServer();

describe('3.3, 4.11: declaration', () => {
  it('3.3: a non-PEP declaration does not recompute the aggregate; it stays in progress until refresh', async () => {
    const { service, client, userId } = await mock.use();
    await passDigilocker({ service, client, userId });
    await client.kyc.bank.verify(userId, BANK);
    const declaration = await client.kyc.declaration.submit(userId, {
      occupation: 'salaried',
      incomeRange: '10l_to_25l',
      isPep: false,
      declarationAccepted: true,
    });
    expect(declaration).toMatchObject({
      occupation: 'salaried',
      isPep: false,
      submittedAt: '2025-01-01T00:00:00.000Z',
    });
    expect(await client.kyc.status(userId)).toMatchObject({ status: 'in_progress' });
    expect((await client.kyc.refresh(userId)).current).toEqual({ level: 'basic', status: 'verified' });
  });

  it('3.3, 4.11: a PEP declaration rejects KYC at once, even a verified one (422 KYC Rejected, shape B)', async () => {
    const { service, client, userId } = await mock.use();
    await passDigilocker({ service, client, userId });
    await client.kyc.bank.verify(userId, BANK);
    await client.kyc.refresh(userId);
    const result = await client.kyc.declaration.submit(userId, {
      occupation: 'business',
      incomeRange: 'above_1cr',
      isPep: true,
      pepDetails: 'Member of a state legislature',
      declarationAccepted: true,
    });
    expect(result).toMatchObject({ isPep: true, kycStatus: 'rejected' });
    expect(await client.kyc.status(userId)).toMatchObject({ status: 'rejected', level: 'none' });
    expect(await client.kyc.extendedStatus(userId)).toMatchObject({ isPepRejected: true });
    // Nothing leaves rejected, refresh included.
    expect((await client.kyc.refresh(userId)).current.status).toBe('rejected');
    expect(kycEvents(service, userId).at(-1)).toMatchObject({
      previous: { status: 'verified' },
      current: { status: 'rejected' },
    });
    const raw = await fetch(`${service.baseUrl}/v2/users/${userId}/kyc/declaration`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${service.sandboxKey}` },
      body: JSON.stringify({
        occupation: 'student',
        incomeRange: 'below_5l',
        isPep: true,
        declarationAccepted: true,
      }),
    });
    expect(raw.status).toBe(422);
    const body = await raw.json();
    expect(DeclarationRejected.parse(ErrorBodyB.parse(body).data).kycStatus).toBe('rejected');
    expect(body).toEqual({
      success: false,
      error: 'KYC Rejected',
      message: expect.any(String),
      data: { declarationId: expect.stringMatching(/^dec_/), isPep: true, kycStatus: 'rejected' },
    });
  });
});
