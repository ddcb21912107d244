import type { ApiPromise } from '../../core/api-promise.js';
import { type PollOptions, poll, pollSettings, withSignal } from '../../core/poll.js';
import type { Transport } from '../../core/transport.js';
import type { RequestOptions } from '../../core/types.js';
import type {
  FaceInitRequest,
  FaceSession,
  FaceVerification,
  FaceVerified,
  FaceVerifyRequest,
} from '../../schemas/kyc/face.js';
import { callForUser } from '../shared.js';

/** Default poll of a face check: every 3 s, up to the session's 600 s life plus a margin. */
export const FACE_POLL = { interval: 3_000, deadline: 630_000 } as const;

/**
 * Face liveness (spec 4.9, optional): the user opens the session's `url`; passes at liveness 0.8, face match 0.7.
 * @example
 * ```ts
 * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
 * const { sessionId, url } = await client.kyc.face.init(userId, { redirectUrl: 'https://partner.test/face' });
 * mock.helpers.face.complete({ sessionId, outcome: 'pass' }); // the user, sent to url, passes
 * const result = await client.kyc.face.waitForResult(userId, { sessionId });
 * ```
 */
export class FaceResource {
  constructor(private readonly transport: Transport) {}

  /** `POST /v2/users/{userId}/kyc/face/init`: starts a liveness session (600 s); see the class example. */
  init(userId: string, params: FaceInitRequest, options?: RequestOptions): ApiPromise<FaceSession> {
    return callForUser(this.transport, 'kyc.face.init', userId, params, options);
  }

  /**
   * `POST /v2/users/{userId}/kyc/face/verify`: pending or failed is `verified: false`; an ended session throws.
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
    return callForUser(this.transport, 'kyc.face.verify', userId, params, options);
  }

  /**
   * Polls `verify` until `verified: true` (the class example shows the flow), the session ends (`SESSION_EXPIRED`
   * throws) or the deadline (default 630 s) throws `PollTimeoutError`, whose `lastValue` holds the last scores.
   */
  waitForResult(
    userId: string,
    params: FaceVerifyRequest = {},
    options: PollOptions & { requestOptions?: RequestOptions } = {},
  ): Promise<FaceVerified> {
    // A fresh idempotency key per read: a repeated one would replay the first answer.
    const readOptions = { ...options.requestOptions, idempotencyKey: undefined };
    return poll<FaceVerification, FaceVerified>(
      `the face check${params.sessionId ? ` of session ${params.sessionId}` : ''} to pass`,
      (signal) => this.verify(userId, params, withSignal(readOptions, signal)),
      (result) => (result.verified ? { done: true, value: result } : { done: false }),
      pollSettings(FACE_POLL, options, this.transport.pollClock),
    );
  }
}
