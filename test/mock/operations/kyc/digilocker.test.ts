import { describe, expect, it } from 'vitest';
import { SANDBOX_KYC } from '../../../../mock/index.js';
import { ErrorBodyB, successEnvelope } from '../../../../src/schemas/common.js';
import { BankNameMismatch } from '../../../../src/schemas/kyc/bank.js';
import { DigilockerEnded } from '../../../../src/schemas/kyc/digilocker.js';
import { UpiInvalidVpa, UpiVerification } from '../../../../src/schemas/kyc/upi.js';
import { failure, kycServer, PDF_BASE64 } from './support.js';

const mock = kycServer();
const BANK = { accountNumber: '123456789012', ifsc: 'HDFC0001234', accountHolderName: 'Asha Rao' };

describe('7.4: document-locker errors', () => {
  it('7.4: SESSION_NOT_FOUND (404) for a clientId never issued to this user', async () => {
    const { client, userId } = await mock.use();
    await failure(client.kyc.digilocker.status(userId, { clientId: 'dlk_nope' }), {
      status: 404,
      shape: 'A',
      error: 'Not Found',
      code: 'SESSION_NOT_FOUND',
    });
  });

  it('7.4: ALREADY_VERIFIED (409) on init once the document locker verified the user', async () => {
    const { service, client, userId } = await mock.use();
    const { clientId } = await client.kyc.digilocker.init(userId);
    service.helpers.digilocker.complete({ clientId, outcome: 'approve' });
    await failure(client.kyc.digilocker.init(userId), {
      status: 409,
      shape: 'A',
      error: 'Conflict',
      code: 'ALREADY_VERIFIED',
    });
  });

  it('7.4: SERVICE_UNAVAILABLE (503) for the sandbox deviceId', async () => {
    const { client, userId } = await mock.use();
    await failure(
      client.kyc.digilocker.init(userId, { deviceId: SANDBOX_KYC.digilockerUnavailableDeviceId }),
      {
        status: 503,
        shape: 'A',
        error: 'Service Unavailable',
        code: 'SERVICE_UNAVAILABLE',
      },
    );
  });

  it('3.2: a denied consent is FAILED; the status answers success false with data, and nothing is verified', async () => {
    const { service, client, userId } = await mock.use();
    const { clientId } = await client.kyc.digilocker.init(userId);
    service.helpers.digilocker.complete({ clientId, outcome: 'deny' });
    const status = await client.kyc.digilocker.status(userId, { clientId });
    expect(status).toMatchObject({
      status: 'FAILED',
      verified: false,
      error: expect.stringContaining('denied'),
    });
    const raw = await fetch(
      `${service.baseUrl}/v2/users/${userId}/kyc/digilocker/status?clientId=${clientId}`,
      {
        headers: { Authorization: `Bearer ${service.sandboxKey}` },
      },
    );
    expect(raw.status).toBe(400);
    const body = ErrorBodyB.parse(await raw.json());
    expect(body.error).toBe('Failed');
    expect(DigilockerEnded.parse(body.data)).toMatchObject({ status: 'FAILED', verified: false });
    expect(await client.kyc.status(userId)).toMatchObject({
      status: 'pending',
      digilocker: { status: 'pending' },
    });
  });
});

describe('7.4: face errors', () => {
  it('7.4: SESSION_NOT_FOUND (404) before any init, and for an unknown sessionId', async () => {
    const { client, userId } = await mock.use();
    for (const body of [{}, { sessionId: 'fce_nope' }]) {
      await failure(client.kyc.face.verify(userId, body), {
        status: 404,
        shape: 'A',
        error: 'Not Found',
        code: 'SESSION_NOT_FOUND',
      });
    }
  });

  it('4.9: pending and failed checks answer verified false with zero scores; a pass verifies; then ALREADY_VERIFIED (409)', async () => {
    const { service, client, userId } = await mock.use();
    const first = await client.kyc.face.init(userId, { redirectUrl: 'https://partner.test/face' });
    expect(first).toMatchObject({
      expiresIn: 600,
      url: `${service.baseUrl}/__pages/face/${first.sessionId}`,
    });
    const zero = { verified: false, livenessScore: 0, faceMatchScore: 0, isLive: false, faceMatched: false };
    expect(await client.kyc.face.verify(userId, { sessionId: first.sessionId })).toMatchObject(zero);
    service.helpers.face.complete({
      sessionId: first.sessionId,
      outcome: 'fail',
      livenessScore: 0.79,
      faceMatchScore: 0.95,
    });
    expect(await client.kyc.face.verify(userId, {})).toMatchObject(zero);

    const second = await client.kyc.face.init(userId, { redirectUrl: 'https://partner.test/face' });
    service.helpers.face.complete({
      sessionId: second.sessionId,
      outcome: 'pass',
      livenessScore: 0.8,
      faceMatchScore: 0.7,
    });
    expect(await client.kyc.face.verify(userId, {})).toEqual({
      verified: true,
      livenessScore: 0.8,
      faceMatchScore: 0.7,
      isLive: true,
      faceMatched: true,
      message: 'Face verified',
    });
    expect(await client.kyc.status(userId)).toMatchObject({
      face: { verified: true },
      status: 'in_progress',
    });
    await failure(client.kyc.face.init(userId, { redirectUrl: 'https://partner.test/face' }), {
      status: 409,
      shape: 'A',
      error: 'Conflict',
      code: 'ALREADY_VERIFIED',
    });
  });
});

describe('4.8, 7.4: UPI outcomes and errors', () => {
  it('4.8: a matching name verifies; titles and word order are tolerated', async () => {
    const { client, userId } = await mock.use({ mobile: '9876543210', name: 'Smt. Rao Asha' });
    const r = await client.kyc.upi.verify(userId, { upiId: '9876543210@ybl' });
    expect(r).toEqual({
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
    await failure(client.kyc.upi.verify(userId, { upiId: 'asha@oksbi' }), {
      status: 409,
      shape: 'A',
      error: 'Conflict',
      code: 'ALREADY_VERIFIED',
    });
  });
});

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

describe('7.3: PAN and Aadhaar errors (shape A)', () => {
  it('7.3: PAN_INVALID (400), PAN_NOT_FOUND (404), NAME_MISMATCH (422 with matchScore), ALREADY_VERIFIED (409)', async () => {
    const { client, userId } = await mock.use();
    await failure(
      client.request({ method: 'POST', path: `/v2/users/${userId}/kyc/pan/verify`, body: { pan: 'ABC123' } }),
      {
        status: 400,
        shape: 'A',
        error: 'Bad Request',
        code: 'PAN_INVALID',
      },
    );
    await failure(client.kyc.pan.verify(userId, { pan: SANDBOX_KYC.pan.notFound }), {
      status: 404,
      shape: 'A',
      error: 'Not Found',
      code: 'PAN_NOT_FOUND',
    });
    const mismatch = await failure(client.kyc.pan.verify(userId, { pan: SANDBOX_KYC.pan.otherHolder }), {
      status: 422,
      shape: 'A',
      error: 'Unprocessable Entity',
      code: 'NAME_MISMATCH',
    });
    expect(mismatch.matchScore).toBeLessThan(70);
    await client.kyc.pan.verify(userId, { pan: 'ABCDE1234F' });
    await failure(client.kyc.pan.verify(userId, { pan: 'ABCDE1234F' }), {
      status: 409,
      shape: 'A',
      error: 'Conflict',
      code: 'ALREADY_VERIFIED',
    });
  });

  it('7.3: AADHAAR_OTP_EXPIRED (400) after 600 s; a wrong OTP counts down attemptsRemaining, then the session is spent', async () => {
    const { service, client, userId } = await mock.use();
    const first = await client.kyc.aadhaar.sendOtp(userId, { aadhaarNumber: '123412341234' });
    await service.clock.advance('600s');
    const { otp } = service.helpers.kyc.aadhaarOtp({ referenceId: first.referenceId });
    await failure(client.kyc.aadhaar.verifyOtp(userId, { referenceId: first.referenceId, otp }), {
      status: 400,
      shape: 'A',
      error: 'Bad Request',
      code: 'AADHAAR_OTP_EXPIRED',
    });
    const second = await client.kyc.aadhaar.sendOtp(userId, { aadhaarNumber: '123412341234' });
    const right = service.helpers.kyc.aadhaarOtp({ referenceId: second.referenceId }).otp;
    const wrong = right === '000000' ? '111111' : '000000';
    for (const remaining of [2, 1, 0]) {
      const error = await failure(
        client.kyc.aadhaar.verifyOtp(userId, { referenceId: second.referenceId, otp: wrong }),
        {
          status: 400,
          shape: 'A',
          error: 'Bad Request',
          code: 'INVALID_OTP',
        },
      );
      expect(error.attemptsRemaining).toBe(remaining);
    }
    await failure(client.kyc.aadhaar.verifyOtp(userId, { referenceId: second.referenceId, otp: right }), {
      status: 400,
      shape: 'A',
      error: 'Bad Request',
      code: 'AADHAAR_OTP_EXPIRED',
    });
  });

  it('7.3: USER_NOT_FOUND (404) on the KYC endpoints in shape A', async () => {
    const { client } = await mock.use();
    await failure(client.kyc.status('usr_nope'), {
      status: 404,
      shape: 'A',
      error: 'Not Found',
      code: 'USER_NOT_FOUND',
    });
    await failure(client.kyc.refresh('usr_nope'), {
      status: 404,
      shape: 'A',
      error: 'Not Found',
      code: 'USER_NOT_FOUND',
    });
  });
});

describe('4.6, 7.4: passport errors (shape B)', () => {
  it('7.4: Bad Request (400) when the file is missing or not a PDF or image; Verification Failed (422) when unreadable', async () => {
    const { client, userId } = await mock.use();
    const path = `/v2/users/${userId}/kyc/passport/verify`;
    for (const body of [{}, { file: Buffer.from('plain text').toString('base64') }, { file: '%%%' }]) {
      await failure(client.request({ method: 'POST', path, body }), {
        status: 400,
        shape: 'B',
        error: 'Bad Request',
      });
    }
    const unreadable = Buffer.from(`%PDF-1.4 ${SANDBOX_KYC.unreadablePassportMarker}`).toString('base64');
    await failure(client.kyc.passport.verify(userId, { file: unreadable }), {
      status: 422,
      shape: 'B',
      error: 'Verification Failed',
    });
    expect((await client.kyc.passport.verify(userId, { file: PDF_BASE64 })).verified).toBe(true);
  });
});
