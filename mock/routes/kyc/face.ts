/**
 * Face liveness (spec 4.9), shape A errors: init opens a 600 s session whose page is
 * `${baseUrl}/__pages/face/:sessionId`; the page (or `helpers.face.complete`) runs the check; verify reports
 * it. A pending or failed check answers `verified: false` with zero scores. `SESSION_NOT_FOUND` 404,
 * `SESSION_EXPIRED` 400, `ALREADY_VERIFIED` 409.
 */
import { ENDPOINTS } from '../../../src/endpoints/index.js';
import { FACE_SESSION_TTL_SECONDS } from '../../../src/schemas/common.js';
import { MockApiError } from '../../engine/errors.js';
import { defineModule } from '../../engine/module.js';
import { route } from '../../engine/route.js';
import { sessionStatusAt } from '../../machines/transition-table.js';
import { faceExpire, startFace, verifyFace } from '../../operations/kyc/face.js';
import { peekKycRecord } from '../../operations/kyc.js';
import type { FaceSessionRecord } from '../../state/kyc.js';
import { alreadyVerified, requireUser } from '../shared.js';

const init = route(ENDPOINTS['kyc.face.init'], (ctx) => {
  const user = requireUser(ctx, ctx.params.userId);
  if (peekKycRecord(ctx.state, user.id).face) throw alreadyVerified('face', user.id);
  const { sessionId, sdkToken } = startFace(ctx.state, user.id, ctx.body);
  return {
    data: {
      sessionId,
      sdkToken,
      url: `${ctx.baseUrl}/__pages/face/${sessionId}`,
      expiresIn: FACE_SESSION_TTL_SECONDS,
    },
    message: 'Face liveness session created',
  };
});

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

const verify = route(ENDPOINTS['kyc.face.verify'], (ctx) => {
  const user = requireUser(ctx, ctx.params.userId);
  const record = peekKycRecord(ctx.state, user.id);
  if (record.face) throw alreadyVerified('face', user.id);
  const session = findSession(ctx.state.kyc.faceSessions, user.id, ctx.body.sessionId);
  if (!session) {
    throw new MockApiError(404, {
      error: 'Not Found',
      message: `No face session${ctx.body.sessionId ? ` ${ctx.body.sessionId}` : ''} for user ${user.id}; initialise one with POST /kyc/face/init`,
      code: 'SESSION_NOT_FOUND',
    });
  }
  const status = sessionStatusAt(session, ctx.now);
  if (status === 'EXPIRED') {
    throw new MockApiError(400, {
      error: 'Bad Request',
      message: `Face session ${session.sessionId} expired (600 s); initialise again with POST /kyc/face/init`,
      code: 'SESSION_EXPIRED',
    });
  }
  const passed = status === 'PASSED';
  const { livenessScore, faceMatchScore } = passed
    ? verifyFace(ctx.mock, user, session)
    : { livenessScore: 0, faceMatchScore: 0 };
  const message = passed
    ? 'Face verified'
    : status === 'PENDING'
      ? 'The liveness check is not finished: the user has not completed it yet'
      : 'The liveness check failed: initialise a new session and try again';
  const data = {
    verified: passed,
    livenessScore,
    faceMatchScore,
    isLive: passed,
    faceMatched: passed,
    message,
  };
  return { data };
});

/** The face routes and the expiry task. */
export const face = defineModule({ name: 'kyc.face', routes: [init, verify], tasks: [faceExpire] });
