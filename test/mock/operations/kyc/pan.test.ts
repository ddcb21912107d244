import { describe, expect, it } from 'vitest';
import { SANDBOX_KYC } from '../../../../mock/index.js';
import { createUser, mockServer, withoutRateWindows } from '../../support.js';
import { alreadyVerified, failure, kycServer } from './support.js';

// A refused request changes nothing: the state after it is the state before, but for the rate-limit window
// every request counts against (spec 8), which the pipeline keeps before any route runs.

const mock = mockServer();

describe('a refused KYC request', () => {
  it('7.3: PAN_INVALID (400) leaves the state as it was, with no KYC record stored for the user', async () => {
    const { service, call } = mock.use();
    const userId = await createUser(call);
    const before = service.helpers.snapshot();
    expect(before.kyc.byUserId[userId]).toBeUndefined();

    const answer = await call('POST', `/v2/users/${userId}/kyc/pan/verify`, { body: { pan: 'NOT-A-PAN' } });

    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'PAN_INVALID' });
    const after = service.helpers.snapshot();
    expect(after.kyc.byUserId[userId]).toBeUndefined();
    expect(withoutRateWindows(after)).toEqual(withoutRateWindows(before));
  });

  it('4.7: a penny drop that fails on the sandbox account leaves the state as it was', async () => {
    const { service, call } = mock.use();
    const userId = await createUser(call);
    const before = service.helpers.snapshot();

    const answer = await call('POST', `/v2/users/${userId}/kyc/bank/verify`, {
      body: {
        accountNumber: SANDBOX_KYC.bank.pennyDropFails,
        ifsc: 'HDFC0001234',
        accountHolderName: 'Asha Rao',
      },
    });

    expect(answer.status).toBe(422);
    expect(withoutRateWindows(service.helpers.snapshot())).toEqual(withoutRateWindows(before));
  });
});

describe('PAN and Aadhaar errors, through the client', () => {
  const kyc = kycServer(mock);

  describe('7.3: PAN and Aadhaar errors (shape A)', () => {
    it('7.3: PAN_INVALID (400), PAN_NOT_FOUND (404), NAME_MISMATCH (422 with matchScore), ALREADY_VERIFIED (409)', async () => {
      const { client, userId } = await kyc.use();
      await failure(
        client.request({
          method: 'POST',
          path: `/v2/users/${userId}/kyc/pan/verify`,
          body: { pan: 'ABC123' },
        }),
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
      await alreadyVerified(client.kyc.pan.verify(userId, { pan: 'ABCDE1234F' }));
    });

    it('7.3: AADHAAR_OTP_EXPIRED (400) after 600 s; a wrong OTP counts down attemptsRemaining, then the session is spent', async () => {
      const { service, client, userId } = await kyc.use();
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
      const { client } = await kyc.use();
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
});
