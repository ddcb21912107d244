import { describe, expect, it } from 'vitest';
import { alreadyVerified, failure, kycServer } from './support.js';

const mock = kycServer();

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
    await alreadyVerified(client.kyc.face.init(userId, { redirectUrl: 'https://partner.test/face' }));
  });
});
