/** Face liveness (spec 4.9, optional): init a session the user opens, then verify. */
import * as z from 'zod/mini';
import { absoluteUrl } from '../../internal/checks.js';
import { DeviceId, requiredString, responseObject } from '../common.js';

const REDIRECT_RULE = 'redirectUrl is required and must be an absolute URL';

/** `POST /v2/users/{userId}/kyc/face/init` body: `redirectUrl` (required), `deviceId?`. */
export const FaceInitRequest = z.object({
  redirectUrl: absoluteUrl(REDIRECT_RULE),
  deviceId: z.optional(DeviceId),
});
/** Face init body. */
export type FaceInitRequest = z.infer<typeof FaceInitRequest>;

/** `POST /v2/users/{userId}/kyc/face/init` data. */
export const FaceSession = responseObject({
  sessionId: z.string(),
  sdkToken: z.string(),
  url: z.string(),
  expiresIn: z.number(),
});
/** A face liveness session. */
export type FaceSession = z.infer<typeof FaceSession>;

/**
 * `POST /v2/users/{userId}/kyc/face/verify` body: `sessionId`, optional when the service holds the session.
 */
export const FaceVerifyRequest = z.object({ sessionId: z.optional(requiredString('sessionId')) });
/** Face verify body. */
export type FaceVerifyRequest = z.infer<typeof FaceVerifyRequest>;

const scores = {
  livenessScore: z.number(),
  faceMatchScore: z.number(),
  isLive: z.boolean(),
  faceMatched: z.boolean(),
  message: z.optional(z.string()),
};

/** A passed check: `verified: true` (liveness >= 0.8 and face match >= 0.7). */
export const FaceVerified = responseObject({ verified: z.literal(true), ...scores });
/** A passed face check. */
export type FaceVerified = z.infer<typeof FaceVerified>;

/** A pending or failed check: `verified: false` (the spec sends scores 0 and both booleans false). */
export const FaceNotVerified = responseObject({ verified: z.literal(false), ...scores });
/** A pending or failed face check. */
export type FaceNotVerified = z.infer<typeof FaceNotVerified>;

/** `POST /v2/users/{userId}/kyc/face/verify` data: passed or not; narrow on `verified`. */
export const FaceVerification = z.union([FaceVerified, FaceNotVerified]);
/** A face check answer. */
export type FaceVerification = z.infer<typeof FaceVerification>;
