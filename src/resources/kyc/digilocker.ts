import type { ApiPromise } from '../../core/api-promise.js';
import { PayoutError } from '../../core/errors.js';
import { type PollOptions, poll, pollSettings, withSignal } from '../../core/poll.js';
import type { Transport } from '../../core/transport.js';
import type { RequestOptions } from '../../core/types.js';
import {
  type DigilockerEnded,
  DigilockerEnded as DigilockerEndedSchema,
  type DigilockerInitRequest,
  type DigilockerSession,
  type DigilockerStatus,
  type DigilockerVerified,
} from '../../schemas/kyc/digilocker.js';
import { callEndpoint, callForUser, recoverAs } from '../shared.js';

/**
 * A document-locker session ended `FAILED` or `EXPIRED`: start a new one with `kyc.digilocker.init`.
 * @example
 * ```ts
 * import { DigilockerSessionError } from 'inr-payouts';
 * const error = new DigilockerSessionError('dl_1', { status: 'EXPIRED', verified: false, error: 'Session expired' });
 * console.log(error.status); // 'EXPIRED'
 * ```
 */
export class DigilockerSessionError extends PayoutError {
  override name = 'DigilockerSessionError';
  readonly status: DigilockerEnded['status'];
  /** The session's last answer. */
  readonly result: DigilockerEnded;
  constructor(clientId: string, result: DigilockerEnded) {
    super(
      `Document-locker session ${clientId} ended as ${result.status}` +
        `${result.error ? ` (${result.error})` : ''}: start a new session with kyc.digilocker.init().`,
    );
    this.status = result.status;
    this.result = result;
  }
}

/** Default poll of a document-locker session: every 3 s, up to its 600 s life plus a margin. */
export const DIGILOCKER_POLL = { interval: 3_000, deadline: 630_000 } as const;

/**
 * The government document-locker consent flow (spec 4.4): init a session, send the user to `url`, wait.
 * @example
 * ```ts
 * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
 * const { clientId, url } = await client.kyc.digilocker.init(userId, { redirectUrl: 'https://partner.test/kyc' });
 * mock.helpers.digilocker.complete({ clientId, outcome: 'approve' }); // the user, sent to url, consents
 * const { aadhaar } = await client.kyc.digilocker.waitForCompletion(userId, clientId);
 * ```
 */
export class DigilockerResource {
  constructor(private readonly transport: Transport) {}

  /** `POST /v2/users/{userId}/kyc/digilocker/init`: a consent session (600 s) at `url`; see the class example. */
  init(
    userId: string,
    params: DigilockerInitRequest = {},
    options?: RequestOptions,
  ): ApiPromise<DigilockerSession> {
    return callForUser(this.transport, 'kyc.digilocker.init', userId, params, options);
  }

  /**
   * `GET /v2/users/{userId}/kyc/digilocker/status?clientId=`: the Verified, Pending, Expired or Failed body (narrow
   * on `status`); Expired, sent with `success: false`, is returned rather than thrown.
   * @example
   * ```ts
   * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
   * const { clientId } = await client.kyc.digilocker.init(userId, { redirectUrl: 'https://partner.test/kyc' });
   * const s = await client.kyc.digilocker.status(userId, { clientId });
   * if (s.status === 'VERIFIED') console.log(s.aadhaar.name);
   * ```
   */
  status(
    userId: string,
    query: { clientId: string },
    options?: RequestOptions,
  ): ApiPromise<DigilockerStatus> {
    return recoverAs(
      callEndpoint(this.transport, 'kyc.digilocker.status', { params: { userId }, query }, options),
      DigilockerEndedSchema,
    );
  }

  /**
   * Polls the session until it is `VERIFIED` (the class example shows the flow). `FAILED` or `EXPIRED` throws
   * `DigilockerSessionError`; the deadline (default 630 s) throws `PollTimeoutError`.
   */
  waitForCompletion(
    userId: string,
    clientId: string,
    options: PollOptions & { requestOptions?: RequestOptions } = {},
  ): Promise<DigilockerVerified> {
    return poll<DigilockerStatus, DigilockerVerified>(
      `document-locker session ${clientId} to complete`,
      (signal) => this.status(userId, { clientId }, withSignal(options.requestOptions, signal)),
      (result) => {
        if (result.status === 'VERIFIED') return { done: true, value: result };
        if (result.status === 'FAILED' || result.status === 'EXPIRED') {
          throw new DigilockerSessionError(clientId, result);
        }
        return { done: false };
      },
      pollSettings(DIGILOCKER_POLL, options, this.transport.pollClock),
    );
  }
}
