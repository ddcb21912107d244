import { describe, expect, it } from 'vitest';
import { MockHelperError, MockTransitionError, SANDBOX_KYC } from '../../../../mock/index.js';
import { ErrorBodyB } from '../../../../src/schemas/common.js';
import { DigilockerEnded } from '../../../../src/schemas/kyc/digilocker.js';
import { alreadyVerified, failure, type KycUser, kycServer } from './support.js';

const mock = kycServer();

/**
 * An ended session as both readers see it: the client reads the ended variant, not verified, its error saying `why`;
 * the raw answer is a 400 with a shape-B body named `error` whose data is that variant (3.2).
 */
async function expectEnded(
  { service, client, userId, clientId }: KycUser & { clientId: string },
  ended: { status: 'FAILED' | 'EXPIRED'; error: string; why: string },
): Promise<void> {
  expect(await client.kyc.digilocker.status(userId, { clientId })).toMatchObject({
    status: ended.status,
    verified: false,
    error: expect.stringContaining(ended.why),
  });
  const raw = await fetch(
    `${service.baseUrl}/v2/users/${userId}/kyc/digilocker/status?clientId=${clientId}`,
    {
      headers: { Authorization: `Bearer ${service.sandboxKey}` },
    },
  );
  expect(raw.status).toBe(400);
  const body = ErrorBodyB.parse(await raw.json());
  expect(body.error).toBe(ended.error);
  expect(DigilockerEnded.parse(body.data)).toMatchObject({ status: ended.status, verified: false });
}

describe('7.4: document-locker errors', () => {
  it.each([
    {
      title: '7.4: SESSION_NOT_FOUND (404) for a clientId never issued to this user',
      call: ({ client, userId }: KycUser) => client.kyc.digilocker.status(userId, { clientId: 'dlk_nope' }),
      expected: { status: 404, shape: 'A', error: 'Not Found', code: 'SESSION_NOT_FOUND' },
    },
    {
      title: '7.4: SERVICE_UNAVAILABLE (503) for the sandbox deviceId',
      call: ({ client, userId }: KycUser) =>
        client.kyc.digilocker.init(userId, { deviceId: SANDBOX_KYC.digilockerUnavailableDeviceId }),
      expected: { status: 503, shape: 'A', error: 'Service Unavailable', code: 'SERVICE_UNAVAILABLE' },
    },
  ] as const)('$title', async ({ call, expected }) => {
    await failure(call(await mock.use()), expected);
  });

  it('7.4: ALREADY_VERIFIED (409) on init once the document locker verified the user', async () => {
    const { service, client, userId } = await mock.use();
    const { clientId } = await client.kyc.digilocker.init(userId);
    service.helpers.digilocker.complete({ clientId, outcome: 'approve' });
    await alreadyVerified(client.kyc.digilocker.init(userId));
  });

  it('3.2: a denied consent is FAILED; the status answers success false with data, and nothing is verified', async () => {
    const { service, client, userId } = await mock.use();
    const { clientId } = await client.kyc.digilocker.init(userId);
    service.helpers.digilocker.complete({ clientId, outcome: 'deny' });
    await expectEnded(
      { service, client, userId, clientId },
      { status: 'FAILED', error: 'Failed', why: 'denied' },
    );
    expect(await client.kyc.status(userId)).toMatchObject({
      status: 'pending',
      digilocker: { status: 'pending' },
    });
  });
});

describe('document-locker and face sessions, through the client', () => {
  describe('3.2, 8: session expiry on the virtual clock', () => {
    it('3.2: a document-locker session is PENDING at 599 s and EXPIRED at 600 s; it answers success false', async () => {
      const { service, client, userId } = await mock.use();
      const { clientId } = await client.kyc.digilocker.init(userId);
      await service.clock.advance('599s');
      expect((await client.kyc.digilocker.status(userId, { clientId })).status).toBe('PENDING');
      await service.clock.advance('1s');
      expect(service.state.kyc.digilockerSessions[clientId]?.status).toBe('EXPIRED');
      await expectEnded(
        { service, client, userId, clientId },
        { status: 'EXPIRED', error: 'Expired', why: 'expired' },
      );
    });

    it('5 (helpers): completing an EXPIRED or finished document-locker session is refused with MockTransitionError', async () => {
      const { service, client, userId } = await mock.use();
      const { clientId } = await client.kyc.digilocker.init(userId);
      await service.clock.advance('10m');
      expect(() => service.helpers.digilocker.complete({ clientId, outcome: 'approve' })).toThrow(
        MockTransitionError,
      );
      try {
        service.helpers.digilocker.complete({ clientId, outcome: 'approve' });
      } catch (error) {
        expect(error).toMatchObject({ state: 'EXPIRED', allowed: ['PENDING'] });
        expect(String(error)).toContain('POST /kyc/digilocker/init');
      }
      const next = await client.kyc.digilocker.init(userId);
      service.helpers.digilocker.complete({ clientId: next.clientId, outcome: 'deny' });
      expect(() =>
        service.helpers.digilocker.complete({ clientId: next.clientId, outcome: 'approve' }),
      ).toThrow(/it is FAILED/);
      expect(() => service.helpers.digilocker.complete({ clientId: 'dlk_nope', outcome: 'approve' })).toThrow(
        MockHelperError,
      );
    });

    it('4.9, 7.4: a face session expires after 600 s: SESSION_EXPIRED (400), and the helper refuses it', async () => {
      const { service, client, userId } = await mock.use();
      const { sessionId } = await client.kyc.face.init(userId, { redirectUrl: 'https://partner.test/face' });
      await service.clock.advance('600s');
      await failure(client.kyc.face.verify(userId, { sessionId }), {
        status: 400,
        shape: 'A',
        error: 'Bad Request',
        code: 'SESSION_EXPIRED',
      });
      expect(() => service.helpers.face.complete({ sessionId, outcome: 'pass' })).toThrow(
        MockTransitionError,
      );
    });

    it('4.9 (helpers): fail with passing scores is refused; a second completion is refused', async () => {
      const { service, client, userId } = await mock.use();
      const { sessionId } = await client.kyc.face.init(userId, { redirectUrl: 'https://partner.test/face' });
      expect(() =>
        service.helpers.face.complete({
          sessionId,
          outcome: 'fail',
          livenessScore: 0.9,
          faceMatchScore: 0.9,
        }),
      ).toThrow(/thresholds/);
      expect(service.helpers.face.complete({ sessionId, outcome: 'pass' })).toEqual({
        sessionId,
        status: 'PASSED',
        redirectUrl: 'https://partner.test/face',
      });
      expect(() => service.helpers.face.complete({ sessionId, outcome: 'pass' })).toThrow(/it is PASSED/);
    });
  });
});
