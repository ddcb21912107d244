import { describe, expect, it } from 'vitest';
import { createMockService } from '../../../mock/index.js';
import { mswHandlers } from '../../../mock/msw/index.js';
import { PayoutClient } from '../../../src/index.js';
import { KycRefresh, KycStatus } from '../../../src/schemas/kyc/status.js';
import { verifyWebhook } from '../../../src/webhooks/index.js';
import { BANK, DEVICE, kycEvents, kycServer, PDF_BASE64, passDigilocker } from './kyc/support.js';

const mock = kycServer();
const { server } = mock;

describe('3.3, 4.4, 4.5, 4.7: a user from creation to KYC verified', () => {
  it('3.3, 4.4: the document-locker route, then bank, then refresh, makes the user verified at level basic', async () => {
    const { service, client, userId } = await mock.use();
    expect(await client.kyc.status(userId)).toEqual({
      level: 'none',
      status: 'pending',
      digilocker: { status: 'pending' },
      aadhaar: { verified: false },
      pan: { verified: false },
      passport: { verified: false },
      attestation: { verified: false },
      face: { verified: false },
      upi: { verified: false },
      bank: { verified: false },
    });

    const session = await client.kyc.digilocker.init(userId, {
      redirectUrl: 'https://partner.test/done',
      deviceId: DEVICE,
    });
    expect(session).toMatchObject({
      expiresIn: 600,
      url: `${service.baseUrl}/__pages/digilocker/${session.clientId}`,
    });
    expect(await client.kyc.digilocker.status(userId, { clientId: session.clientId })).toMatchObject({
      status: 'PENDING',
      verified: false,
    });
    await service.clock.advance('2m');
    const done = service.helpers.digilocker.complete({ clientId: session.clientId, outcome: 'approve' });
    expect(done).toEqual({
      clientId: session.clientId,
      status: 'VERIFIED',
      redirectUrl: 'https://partner.test/done',
    });
    const verified = await client.kyc.digilocker.status(userId, { clientId: session.clientId });
    // Exactly the spec's Verified body (4.4): the completion time is read from the KYC status record.
    expect(Object.keys(verified).sort()).toEqual(['aadhaar', 'pan', 'status', 'verified']);
    expect(verified).toMatchObject({
      status: 'VERIFIED',
      verified: true,
      aadhaar: { name: 'Asha Rao', maskedAadhaar: 'XXXX-XXXX-1234' },
      pan: { number: 'ABCDE1234F', name: 'ASHA RAO' },
    });

    const afterLocker = await client.kyc.status(userId);
    expect(afterLocker).toMatchObject({
      level: 'none',
      status: 'in_progress',
      digilocker: { verified: true, status: 'VERIFIED', completedAt: '2025-01-01T00:02:00.000Z' },
      aadhaar: { verified: true, nameOnAadhaar: 'Asha Rao' },
      pan: { verified: true, maskedNumber: 'XXXXX1234X' },
    });

    const bank = await client.kyc.bank.verify(userId, { ...BANK, deviceId: DEVICE });
    expect(bank).toEqual({
      verified: true,
      bankName: 'HDFC Bank',
      branch: 'Branch 001234',
      accountHolderName: 'ASHA RAO',
      maskedAccountNumber: 'XXXXXXXX9012',
      ifsc: 'HDFC0001234',
    });
    // 3.3: requirements met, but only refresh settles the status.
    expect(await client.kyc.status(userId)).toMatchObject({ status: 'in_progress', level: 'none' });

    const refreshed = await client.kyc.refresh(userId);
    expect(refreshed).toEqual({
      previous: { level: 'none', status: 'in_progress' },
      current: { level: 'basic', status: 'verified' },
    });
    const final = await client.kyc.status(userId);
    expect(KycStatus.parse(final)).toMatchObject({
      level: 'basic',
      status: 'verified',
      bank: { verified: true },
    });
    expect(kycEvents(service, userId)).toEqual([
      {
        userId,
        previous: { level: 'none', status: 'pending' },
        current: { level: 'none', status: 'in_progress' },
      },
      {
        userId,
        previous: { level: 'none', status: 'in_progress' },
        current: { level: 'basic', status: 'verified' },
      },
    ]);
  });

  it('3.3, 4.5: the Aadhaar OTP and PAN route, then bank, then refresh', async () => {
    const { service, client, userId } = await mock.use();
    const sent = await client.kyc.aadhaar.sendOtp(userId, { aadhaarNumber: '123412345678' });
    expect(sent).toMatchObject({ maskedAadhaar: 'XXXX-XXXX-5678', expiresIn: 600 });
    const { otp } = service.helpers.kyc.aadhaarOtp({ referenceId: sent.referenceId });
    const aadhaar = await client.kyc.aadhaar.verifyOtp(userId, { referenceId: sent.referenceId, otp });
    expect(aadhaar).toEqual({
      verified: true,
      maskedNumber: 'XXXX-XXXX-5678',
      nameOnAadhaar: 'Asha Rao',
      verifiedAt: '2025-01-01T00:00:00.000Z',
    });
    const pan = await client.kyc.pan.verify(userId, { pan: 'ABCDE1234F' });
    expect(pan).toMatchObject({
      verified: true,
      maskedNumber: 'XXXXX1234X',
      nameOnPan: 'ASHA RAO',
      nameMatchScore: 100,
    });
    // 3.3: not all requirements yet; refresh re-evaluates and stays in progress.
    expect(await client.kyc.refresh(userId)).toEqual({
      previous: { level: 'none', status: 'in_progress' },
      current: { level: 'none', status: 'in_progress' },
    });
    await client.kyc.bank.verify(userId, { ...BANK, accountHolderName: 'Rao Asha' });
    expect((await client.kyc.refresh(userId)).current).toEqual({ level: 'basic', status: 'verified' });
  });

  it('2.7 rule 4: face and UPI are optional; refresh without a bank account stays in progress', async () => {
    const { service, client, userId } = await mock.use();
    await passDigilocker({ service, client, userId });
    expect((await client.kyc.upi.verify(userId, { upiId: 'asha@okhdfcbank' })).verified).toBe(true);
    expect((await client.kyc.refresh(userId)).current.status).toBe('in_progress');
    await client.kyc.bank.verify(userId, BANK);
    expect((await client.kyc.refresh(userId)).current.status).toBe('verified');
  });

  it('3.3: a refresh on a verified user reports previous and current alike; nothing is emitted', async () => {
    const { service, client, userId } = await mock.use();
    await passDigilocker({ service, client, userId });
    await client.kyc.bank.verify(userId, BANK);
    await client.kyc.refresh(userId);
    const events = kycEvents(service, userId).length;
    expect(await client.kyc.refresh(userId)).toEqual({
      previous: { level: 'basic', status: 'verified' },
      current: { level: 'basic', status: 'verified' },
    });
    expect(kycEvents(service, userId)).toHaveLength(events);
  });
});

describe('a user who is not Indian, through the client', () => {
  const BANK = { accountNumber: '123456789012', ifsc: 'SBIN0000000', accountHolderName: 'Asha Rao' };

  describe('2.7 rule 4: a user who is not Indian', () => {
    it('2.7: with a non-Indian nationality, a passport and a bank account meet the requirements', async () => {
      const { client, userId } = await mock.use({ mobile: '9876543219', name: 'Emma Clarke' });
      await client.kyc.profile.submit(userId, {
        dateOfBirth: '1988-05-04',
        nationality: 'GB',
        city: 'Mumbai',
      });
      await client.kyc.passport.verify(userId, { file: PDF_BASE64 });
      await client.kyc.bank.verify(userId, { ...BANK, accountHolderName: 'Emma Clarke' });
      expect(await client.kyc.refresh(userId)).toEqual({
        previous: { level: 'none', status: 'in_progress' },
        current: { level: 'basic', status: 'verified' },
      });
    });
  });
});

describe('user.kyc_updated, behind an msw server', () => {
  describe('6.2: user.kyc_updated', () => {
    it('6.2, 6.3: each aggregate change is delivered signed, with previous and current as refresh shows them', async () => {
      const mock = createMockService({ account: { webhookUrl: 'https://partner.test/hooks' } });
      server.use(...mswHandlers(mock));
      mock.helpers.webhooks.useFetch(async () => new Response(null, { status: 200 }));
      const client = new PayoutClient({ apiKey: mock.sandboxKey, baseUrl: mock.baseUrl, maxRetries: 0 });
      const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
      const { clientId } = await client.kyc.digilocker.init(userId);
      mock.helpers.digilocker.complete({ clientId, outcome: 'approve' });
      await client.kyc.bank.verify(userId, {
        accountNumber: '123456789012',
        ifsc: 'HDFC0001234',
        accountHolderName: 'Asha Rao',
      });
      const refreshed = await client.kyc.refresh(userId);
      await mock.clock.advance('1s');

      const deliveries = mock.helpers.webhooks.captured().filter((d) => d.eventType === 'user.kyc_updated');
      const events = deliveries.map((d) =>
        // Signed with the wall clock at the POST: verified as a receiver would, with its own clock.
        verifyWebhook(d.body, d.headers['x-service-signature'] ?? '', mock.webhookSecret),
      );
      expect(events.map((e) => e.event)).toEqual(['user.kyc_updated', 'user.kyc_updated']);
      const last = events[1]?.data;
      expect(KycRefresh.parse(last)).toMatchObject(refreshed);
      expect(last).toMatchObject({ userId });
    });
  });
});
