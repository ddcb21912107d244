import { describe, expect, it } from 'vitest';
import { ErrorBodyB } from '../../../src/schemas/common.js';
import { DeclarationRejected } from '../../../src/schemas/kyc/declaration.js';
import { KycStatus } from '../../../src/schemas/kyc/status.js';
import { DEVICE, failure, kycEvents, kycServer, PDF_BASE64 } from './kyc/support.js';

const mock = kycServer();
const BANK = { accountNumber: '123456789012', ifsc: 'HDFC0001234', accountHolderName: 'Asha Rao' };

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
    const session = await client.kyc.digilocker.init(userId);
    service.helpers.digilocker.complete({ clientId: session.clientId, outcome: 'approve' });
    expect((await client.kyc.upi.verify(userId, { upiId: 'asha@okhdfcbank' })).verified).toBe(true);
    expect((await client.kyc.refresh(userId)).current.status).toBe('in_progress');
    await client.kyc.bank.verify(userId, BANK);
    expect((await client.kyc.refresh(userId)).current.status).toBe('verified');
  });

  it('3.3: a refresh on a verified user reports previous and current alike; nothing is emitted', async () => {
    const { service, client, userId } = await mock.use();
    const session = await client.kyc.digilocker.init(userId);
    service.helpers.digilocker.complete({ clientId: session.clientId, outcome: 'approve' });
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

describe('3.3, 4.11: declaration', () => {
  it('3.3: a non-PEP declaration does not recompute the aggregate; it stays in progress until refresh', async () => {
    const { service, client, userId } = await mock.use();
    const session = await client.kyc.digilocker.init(userId);
    service.helpers.digilocker.complete({ clientId: session.clientId, outcome: 'approve' });
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
    const session = await client.kyc.digilocker.init(userId);
    service.helpers.digilocker.complete({ clientId: session.clientId, outcome: 'approve' });
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

describe('2.8, 4.10: extended profile, document and extended status', () => {
  it('2.8: extended status lists missing steps until profile, document and declaration are in', async () => {
    const { service, client, userId } = await mock.use();
    expect(await client.kyc.extendedStatus(userId)).toEqual({
      complete: false,
      missing: ['profile', 'document', 'declaration'],
      isPepRejected: false,
      profile: { submitted: false },
      document: { submitted: false },
      declaration: { submitted: false },
    });
    const profile = await client.kyc.profile.submit(userId, {
      dateOfBirth: '1990-01-01',
      nationality: 'IN',
      city: 'Bengaluru',
    });
    expect(profile).toMatchObject({ profileId: expect.stringMatching(/^prof_/), city: 'Bengaluru' });
    const file = new TextEncoder().encode('%PDF-1.4 licence');
    await service.clock.advance('1m');
    const document = await client.kyc.document.upload(userId, {
      documentType: 'driving_license',
      fileName: 'licence.pdf',
      mimeType: 'application/pdf',
      deviceId: DEVICE,
      file,
    });
    expect(document).toEqual({
      documentId: expect.stringMatching(/^doc_/),
      documentType: 'driving_license',
      fileName: 'licence.pdf',
      uploadedAt: '2025-01-01T00:01:00.000Z',
    });
    await client.kyc.declaration.submit(userId, {
      occupation: 'student',
      incomeRange: 'below_5l',
      isPep: false,
      declarationAccepted: true,
    });
    expect(await client.kyc.extendedStatus(userId)).toEqual({
      complete: true,
      missing: [],
      isPepRejected: false,
      profile: {
        submitted: true,
        dateOfBirth: '1990-01-01',
        nationality: 'IN',
        city: 'Bengaluru',
        submittedAt: '2025-01-01T00:00:00.000Z',
      },
      document: {
        submitted: true,
        documentType: 'driving_license',
        fileName: 'licence.pdf',
        verified: true,
        uploadedAt: '2025-01-01T00:01:00.000Z',
      },
      declaration: {
        submitted: true,
        occupation: 'student',
        incomeRange: 'below_5l',
        isPep: false,
        submittedAt: '2025-01-01T00:01:00.000Z',
      },
    });
  });

  it('4.6: a passport PDF verifies and fills the passport and attestation blocks', async () => {
    const { client, userId } = await mock.use();
    const passport = await client.kyc.passport.verify(userId, { file: PDF_BASE64, fileName: 'passport.pdf' });
    expect(passport).toEqual({
      verified: true,
      givenName: 'ASHA',
      surname: 'RAO',
      nationality: 'IND',
      dob: '1990-01-01',
    });
    expect(await client.kyc.status(userId)).toMatchObject({
      status: 'in_progress',
      passport: { verified: true },
      attestation: { verified: true, docType: 'passport', legalName: 'ASHA RAO' },
    });
    await failure(client.kyc.passport.verify(userId, { file: PDF_BASE64 }), {
      status: 409,
      shape: 'B',
      error: 'Already Verified',
    });
  });
});
