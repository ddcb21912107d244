import { describe, expect, it } from 'vitest';
import { DEVICE, failure, kycServer, PDF_BASE64 } from './support.js';

const mock = kycServer();

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
