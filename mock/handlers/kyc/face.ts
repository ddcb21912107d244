/**
 * Face liveness (spec 4.9), shape A errors: init opens a 600 s session whose page is
 * `${baseUrl}/__pages/face/:sessionId`; the page (or `helpers.face.complete`) runs the check; verify reports
 * it. A pending or failed check answers `verified: false` with zero scores. `SESSION_NOT_FOUND` 404,
 * `SESSION_EXPIRED` 400, `ALREADY_VERIFIED` 409.
 */
import { FACE_SESSION_TTL_SECONDS } from '../../../src/schemas/common.js';
import { FaceInitRequest, FaceVerifyRequest } from '../../../src/schemas/kyc/face.js';
import { MockApiError } from '../../engine/errors.js';
import { nextId, randomString } from '../../engine/ids.js';
import { defineModule } from '../../engine/module.js';
import { route } from '../../engine/route.js';
import { defineTask } from '../../engine/tasks.js';
import { schedule } from '../../engine/timers.js';
import { effectiveFaceStatus, faceTransition } from '../../machines/face-session.js';
import { applyAggregate, kycRecord } from '../../operations/kyc.js';
import { recordSession, recordStep } from '../../operations/transitions.js';
import type { FaceSessionRecord } from '../../state/kyc.js';
import { requireUser } from '../shared.js';

/** Timer kind that expires a pending session 600 s after init. */
export const faceExpire = defineTask<{ sessionId: string }>(
  'kyc.face.expire',
  ({ sessionId }, { state, now }) => {
    const session = state.kyc.faceSessions[sessionId];
    if (!session) return;
    const t = faceTransition(session, { type: 'expire' }, now);
    if (!t.ok) return;
    state.kyc.faceSessions[sessionId] = t.next;
    recordSession(state, 'face-session', session, t.next.status, 'expire');
  },
);

const alreadyVerified = (userId: string) =>
  new MockApiError(409, {
    error: 'Conflict',
    message: `The face of user ${userId} is already verified`,
    code: 'ALREADY_VERIFIED',
  });

const init = route(
  'POST',
  '/v2/users/:userId/kyc/face/init',
  (ctx) => {
    const user = requireUser(ctx, ctx.params.userId);
    if (kycRecord(ctx.state, user.id).face) throw alreadyVerified(user.id);
    const sessionId = nextId(ctx.state, 'fce');
    const session: FaceSessionRecord = {
      sessionId,
      userId: user.id,
      sdkToken: `sdk_${randomString(ctx.state, 32)}`,
      status: 'PENDING',
      redirectUrl: ctx.body.redirectUrl,
      deviceId: ctx.body.deviceId,
      createdAt: ctx.nowIso,
      expiresAt: new Date(ctx.now + FACE_SESSION_TTL_SECONDS * 1000).toISOString(),
    };
    ctx.state.kyc.faceSessions[sessionId] = session;
    schedule(ctx.state, faceExpire, `${FACE_SESSION_TTL_SECONDS}s`, { sessionId });
    return {
      data: {
        sessionId,
        sdkToken: session.sdkToken,
        url: `${ctx.runtime.options.baseUrl}/__pages/face/${sessionId}`,
        expiresIn: FACE_SESSION_TTL_SECONDS,
      },
      message: 'Face liveness session created',
    };
  },
  { bodySchema: FaceInitRequest },
);

/** The session named, or the user's latest (the service keeps it, spec 4.9). */
function findSession(sessions: Record<string, FaceSessionRecord>, userId: string, sessionId?: string) {
  if (sessionId) {
    const session = sessions[sessionId];
    return session?.userId === userId ? session : undefined;
  }
  let latest: FaceSessionRecord | undefined;
  for (const session of Object.values(sessions)) {
    if (session.userId === userId && (!latest || session.createdAt >= latest.createdAt)) latest = session;
  }
  return latest;
}

const verify = route(
  'POST',
  '/v2/users/:userId/kyc/face/verify',
  (ctx) => {
    const user = requireUser(ctx, ctx.params.userId);
    const record = kycRecord(ctx.state, user.id);
    if (record.face) throw alreadyVerified(user.id);
    const session = findSession(ctx.state.kyc.faceSessions, user.id, ctx.body.sessionId);
    if (!session) {
      throw new MockApiError(404, {
        error: 'Not Found',
        message: `No face session${ctx.body.sessionId ? ` ${ctx.body.sessionId}` : ''} for user ${user.id}; initialise one with POST /kyc/face/init`,
        code: 'SESSION_NOT_FOUND',
      });
    }
    const status = effectiveFaceStatus(session, ctx.now);
    if (status === 'EXPIRED') {
      throw new MockApiError(400, {
        error: 'Bad Request',
        message: `Face session ${session.sessionId} expired (600 s); initialise again with POST /kyc/face/init`,
        code: 'SESSION_EXPIRED',
      });
    }
    if (status === 'PASSED') {
      const livenessScore = session.livenessScore ?? 0;
      const faceMatchScore = session.faceMatchScore ?? 0;
      record.face = { livenessScore, faceMatchScore, verifiedAt: ctx.nowIso };
      recordStep(ctx.state, user.id, 'face', 'POST /kyc/face/verify');
      applyAggregate(ctx.state, user, record, { type: 'recompute' });
      return {
        data: {
          verified: true,
          livenessScore,
          faceMatchScore,
          isLive: true,
          faceMatched: true,
          message: 'Face verified',
        },
      };
    }
    const message =
      status === 'PENDING'
        ? 'The liveness check is not finished: the user has not completed it yet'
        : 'The liveness check failed: initialise a new session and try again';
    return {
      data: {
        verified: false,
        livenessScore: 0,
        faceMatchScore: 0,
        isLive: false,
        faceMatched: false,
        message,
      },
    };
  },
  { bodySchema: FaceVerifyRequest },
);

/** The face routes and the expiry task. */
export const face = defineModule({ name: 'kyc.face', routes: [init, verify], tasks: [faceExpire] });
