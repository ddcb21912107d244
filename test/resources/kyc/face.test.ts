import { describe, expect, it } from 'vitest';
import { APIUserAbortError, BadRequestError, PollTimeoutError } from '../../../src/index.js';
import { fail, fast, ok, route, useClient } from '../../support/msw.js';
import { postsAndReads } from './support.js';

const client = useClient();
const notYet = {
  verified: false,
  livenessScore: 0,
  faceMatchScore: 0,
  isLive: false,
  faceMatched: false,
  message: 'Check pending',
};
const passed = {
  verified: true,
  livenessScore: 0.93,
  faceMatchScore: 0.88,
  isLive: true,
  faceMatched: true,
  message: 'Face verified',
};

describe('kyc.face.init', () => {
  it('POSTs redirectUrl and deviceId, reads the session', async () => {
    await postsAndReads(
      'face/init',
      { redirectUrl: 'https://partner.test/face', deviceId: 'fp-1' },
      { sessionId: 'fs_1', sdkToken: 'tok_1', url: 'https://face.test/fs_1', expiresIn: 600 },
      (userId, params) => client.kyc.face.init(userId, params),
    );
  });
});

describe('kyc.face.verify', () => {
  it('passed: POSTs sessionId and reads the scores', async () => {
    await postsAndReads('face/verify', { sessionId: 'fs_1' }, passed, (userId, params) =>
      client.kyc.face.verify(userId, params),
    );
  });

  it('pending or failed: success with verified false, scores 0, booleans false', async () => {
    route('post', '/v2/users/:id/kyc/face/verify', ok(notYet));
    expect(await client.kyc.face.verify('usr_1', { sessionId: 'fs_1' })).toEqual(notYet);
  });

  it('sessionId is optional when the service holds the session', async () => {
    const seen = route('post', '/v2/users/:id/kyc/face/verify', ok(passed));
    await client.kyc.face.verify('usr_1');
    expect(seen[0]?.body).toEqual({});
  });

  it('SESSION_EXPIRED is an error', async () => {
    route(
      'post',
      '/v2/users/:id/kyc/face/verify',
      fail(400, { error: 'Bad Request', message: 'Initialize again', code: 'SESSION_EXPIRED' }),
    );
    await expect(client.kyc.face.verify('usr_1', { sessionId: 'fs_1' })).rejects.toBeInstanceOf(
      BadRequestError,
    );
  });
});

describe('kyc.face.waitForResult', () => {
  it('polls until verified', async () => {
    const seen = route('post', '/v2/users/:id/kyc/face/verify', ok(notYet), ok(notYet), ok(passed));
    const result = await client.kyc.face.waitForResult('usr_1', { sessionId: 'fs_1' }, fast);
    expect(result.livenessScore).toBe(0.93);
    expect(seen).toHaveLength(3);
  });

  it('gives every read its own Idempotency-Key, even when the caller set one, so no read is a replay', async () => {
    const seen = route('post', '/v2/users/:id/kyc/face/verify', ok(notYet), ok(passed));
    await client.kyc.face.waitForResult(
      'usr_1',
      { sessionId: 'fs_1' },
      { ...fast, requestOptions: { idempotencyKey: 'cec315e3-d097-4e5c-8281-1d5d8725f149' } },
    );
    const keys = seen.map((s) => s.headers.get('idempotency-key'));
    expect(new Set(keys).size).toBe(2);
    expect(keys).not.toContain('cec315e3-d097-4e5c-8281-1d5d8725f149');
  });

  it('an expired session ends the wait with its error', async () => {
    route(
      'post',
      '/v2/users/:id/kyc/face/verify',
      ok(notYet),
      fail(400, { error: 'Bad Request', message: 'Initialize again', code: 'SESSION_EXPIRED' }),
    );
    await expect(client.kyc.face.waitForResult('usr_1', { sessionId: 'fs_1' }, fast)).rejects.toMatchObject({
      code: 'SESSION_EXPIRED',
    });
  });

  it('the deadline throws PollTimeoutError with the last scores', async () => {
    route('post', '/v2/users/:id/kyc/face/verify', ok(notYet));
    const error = await client.kyc.face
      .waitForResult('usr_1', { sessionId: 'fs_1' }, { interval: 50, deadline: 200 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect((error as PollTimeoutError).lastValue).toEqual(notYet);
  });

  it('abort stops the wait', async () => {
    route('post', '/v2/users/:id/kyc/face/verify', ok(notYet));
    const controller = new AbortController();
    const waiting = client.kyc.face.waitForResult(
      'usr_1',
      {},
      { interval: 5_000, signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 50);
    await expect(waiting).rejects.toBeInstanceOf(APIUserAbortError);
  });
});
