import type { ApiPromise } from '../../core/api-promise.js';
import { type PollOptions, poll, pollSettings, withSignal } from '../../core/poll.js';
import type { Transport } from '../../core/transport.js';
import type { RequestOptions } from '../../core/types.js';
import {
  type FaceInitRequest,
  FaceInitRequest as FaceInitRequestSchema,
  type FaceSession,
  FaceSession as FaceSessionSchema,
  type FaceVerification,
  FaceVerification as FaceVerificationSchema,
  type FaceVerified,
  type FaceVerifyRequest,
  FaceVerifyRequest as FaceVerifyRequestSchema,
} from '../../schemas/kyc/face.js';
import { send, userPath } from '../shared.js';

/**
 * Default poll of a face check: every 3 s, up to the session's 600 s life plus a margin.
 * @example
 * ```ts
 * import { FACE_POLL } from 'inr-payouts';
 * FACE_POLL.deadline // 630000
 * ```
 */
export const FACE_POLL = { interval: 3_000, deadline: 630_000 } as const;

/**
 * Face liveness (spec 4.9, optional): init a session the user opens at `url`, then verify. Passes at liveness
 * >= 0.8 and face match >= 0.7.
 *
 * @example
 * ```ts
 * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
 * const { sessionId, url } = await client.kyc.face.init(userId, { redirectUrl: 'https://partner.test/face' });
 * // Send the user to url; in the mock, pass the check for them:
 * mock.helpers.face.complete({ sessionId, outcome: 'pass' });
 * const result = await client.kyc.face.waitForResult(userId, { sessionId });
 * ```
 */
export class FaceResource {
  constructor(private readonly transport: Transport) {}

  /**
   * `POST /v2/users/{userId}/kyc/face/init`: starts a liveness session (600 s).
   * @example
   * ```ts
   * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
   * const { sessionId, sdkToken, url } = await client.kyc.face.init(userId, { redirectUrl: 'https://partner.test/face' });
   * ```
   */
  init(userId: string, params: FaceInitRequest, options?: RequestOptions): ApiPromise<FaceSession> {
    return send(
      this.transport,
      () => ({
        method: 'POST',
        path: userPath(userId, '/kyc/face/init'),
        body: params,
        bodySchema: FaceInitRequestSchema,
        dataSchema: FaceSessionSchema,
      }),
      options,
    );
  }

  /**
   * `POST /v2/users/{userId}/kyc/face/verify`: reads the check. A pending or failed check is a successful answer
   * with `verified: false` and scores 0; narrow on `verified`. `SESSION_EXPIRED` and `SESSION_NOT_FOUND` throw.
   * @example
   * ```ts
   * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
   * const { sessionId } = await client.kyc.face.init(userId, { redirectUrl: 'https://partner.test/face' });
   * const r = await client.kyc.face.verify(userId, { sessionId });
   * if (r.verified) console.log(r.livenessScore); // pending: verified false, scores 0
   * ```
   */
  verify(
    userId: string,
    params: FaceVerifyRequest = {},
    options?: RequestOptions,
  ): ApiPromise<FaceVerification> {
    return send(
      this.transport,
      () => ({
        method: 'POST',
        path: userPath(userId, '/kyc/face/verify'),
        body: params,
        bodySchema: FaceVerifyRequestSchema,
        dataSchema: FaceVerificationSchema,
      }),
      options,
    );
  }

  /**
   * Polls `verify` until the check passes. The service answers a pending and a failed check alike, so it keeps
   * reading until `verified: true`, the session ends (`SESSION_EXPIRED` thrown as an `APIError`), the deadline
   * (default 630 s, `PollTimeoutError`, whose `lastValue` holds the last scores) or `signal`.
   * @example
   * ```ts
   * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
   * const { sessionId } = await client.kyc.face.init(userId, { redirectUrl: 'https://partner.test/face' });
   * mock.helpers.face.complete({ sessionId, outcome: 'pass' });
   * const { livenessScore, faceMatchScore } = await client.kyc.face.waitForResult(userId, { sessionId });
   * ```
   */
  waitForResult(
    userId: string,
    params: FaceVerifyRequest = {},
    options: PollOptions & { requestOptions?: RequestOptions } = {},
  ): Promise<FaceVerified> {
    return poll<FaceVerification, FaceVerified>(
      `the face check${params.sessionId ? ` of session ${params.sessionId}` : ''} to pass`,
      // Each read is its own logical call with a fresh idempotency key: a repeated key would replay the first answer.
      (signal) =>
        Promise.resolve(
          this.verify(
            userId,
            params,
            withSignal({ ...options.requestOptions, idempotencyKey: undefined }, signal),
          ),
        ),
      (result) => (result.verified ? { done: true, value: result } : { done: false }),
      pollSettings(FACE_POLL, options, this.transport.clock),
    );
  }
}
