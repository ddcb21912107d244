/**
 * Face liveness (spec 4.9, optional): init a session the user opens, then verify.
 */
import * as z from 'zod/mini';
import { absoluteUrl } from '../../internal/checks.js';
import { DeviceId, requiredString } from '../common.js';

const REDIRECT_RULE = 'redirectUrl is required and must be an absolute URL';

/**
 * `POST /v2/users/{userId}/kyc/face/init` body: `redirectUrl` (required), `deviceId?`.
 * @example
 * ```ts
 * import { FaceInitRequest } from 'inr-payouts';
 * FaceInitRequest.parse({ redirectUrl: 'https://partner.test/face/done' })
 * ```
 */
export const FaceInitRequest = z.object({
  redirectUrl: absoluteUrl(REDIRECT_RULE),
  deviceId: z.optional(DeviceId),
});
/**
 * Face init body.
 * @example
 * ```ts
 * import { FaceInitRequest } from 'inr-payouts';
 * const p: FaceInitRequest = { redirectUrl: 'https://partner.test/face/done' };
 * ```
 */
export type FaceInitRequest = z.infer<typeof FaceInitRequest>;

/**
 * `POST /v2/users/{userId}/kyc/face/init` data.
 * @example
 * ```ts
 * import { FaceSession } from 'inr-payouts';
 * FaceSession.parse({ sessionId: 'fs_1', sdkToken: 'tok', url: 'https://face.test/fs_1', expiresIn: 600 })
 * ```
 */
export const FaceSession = z.looseObject({
  sessionId: z.string(),
  sdkToken: z.string(),
  url: z.string(),
  expiresIn: z.number(),
});
/**
 * A face liveness session.
 * @example
 * ```ts
 * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao', email: 'asha@example.com' });
 * const { sessionId, url } = await client.kyc.face.init(userId, { redirectUrl: 'https://partner.test/face' });
 * ```
 */
export type FaceSession = z.infer<typeof FaceSession>;

/**
 * `POST /v2/users/{userId}/kyc/face/verify` body: `sessionId`, optional when the service holds the session.
 * @example
 * ```ts
 * import { FaceVerifyRequest } from 'inr-payouts';
 * FaceVerifyRequest.parse({ sessionId: 'fs_1' })
 * ```
 */
export const FaceVerifyRequest = z.object({ sessionId: z.optional(requiredString('sessionId')) });
/**
 * Face verify body.
 * @example
 * ```ts
 * import { FaceVerifyRequest } from 'inr-payouts';
 * const p: FaceVerifyRequest = { sessionId: 'fs_1' };
 * ```
 */
export type FaceVerifyRequest = z.infer<typeof FaceVerifyRequest>;

const scores = {
  livenessScore: z.number(),
  faceMatchScore: z.number(),
  isLive: z.boolean(),
  faceMatched: z.boolean(),
  message: z.optional(z.string()),
};

/**
 * A passed check: `verified: true` (liveness >= 0.8 and face match >= 0.7).
 * @example
 * ```ts
 * import { FaceVerified } from 'inr-payouts';
 * FaceVerified.parse({ verified: true, livenessScore: 0.93, faceMatchScore: 0.88, isLive: true, faceMatched: true, message: 'Face verified' })
 * ```
 */
export const FaceVerified = z.looseObject({ verified: z.literal(true), ...scores });
/**
 * A passed face check.
 * @example
 * ```ts
 * import { FaceVerification } from 'inr-payouts';
 * const r = FaceVerification.parse({ verified: true, livenessScore: 0.93, faceMatchScore: 0.88, isLive: true, faceMatched: true, message: 'Face verified' });
 * if (r.verified) console.log(r.livenessScore); // 0.93
 * ```
 */
export type FaceVerified = z.infer<typeof FaceVerified>;

/**
 * A pending or failed check: `verified: false` (the spec sends scores 0 and both booleans false).
 * @example
 * ```ts
 * import { FaceNotVerified } from 'inr-payouts';
 * FaceNotVerified.parse({ verified: false, livenessScore: 0, faceMatchScore: 0, isLive: false, faceMatched: false, message: 'Pending' })
 * ```
 */
export const FaceNotVerified = z.looseObject({ verified: z.literal(false), ...scores });
/**
 * A pending or failed face check.
 * @example
 * ```ts
 * import { FaceNotVerified } from 'inr-payouts';
 * const r: FaceNotVerified = { verified: false, livenessScore: 0, faceMatchScore: 0, isLive: false, faceMatched: false };
 * ```
 */
export type FaceNotVerified = z.infer<typeof FaceNotVerified>;

/**
 * `POST /v2/users/{userId}/kyc/face/verify` data: passed or not; narrow on `verified`.
 * @example
 * ```ts
 * import { FaceVerification } from 'inr-payouts';
 * const r = FaceVerification.parse({ verified: false, livenessScore: 0, faceMatchScore: 0, isLive: false, faceMatched: false });
 * ```
 */
export const FaceVerification = z.union([FaceVerified, FaceNotVerified]);
/**
 * A face check answer.
 * @example
 * ```ts
 * import { FaceVerification } from 'inr-payouts';
 * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao', email: 'asha@example.com' });
 * const { sessionId } = await client.kyc.face.init(userId, { redirectUrl: 'https://partner.test/face' });
 * const r: FaceVerification = await client.kyc.face.verify(userId, { sessionId });
 * ```
 */
export type FaceVerification = z.infer<typeof FaceVerification>;
