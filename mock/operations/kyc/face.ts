/**
 * Face liveness (spec 4.9): a session opens PENDING for 600 s; the user's check PASSES or FAILS it against the
 * thresholds; an unchecked session EXPIRES on the clock; verifying a PASSED session records the face step.
 */
import { FACE_SESSION_TTL_SECONDS } from '../../../src/schemas/common.js';
import type { Explanation } from '../../engine/explain.js';
import { nextId, randomString } from '../../engine/ids.js';
import type { ServiceInternals } from '../../engine/internals.js';
import { defineTask } from '../../engine/tasks.js';
import { nowIso, schedule } from '../../engine/timers.js';
import { type FaceTransition, faceTransition } from '../../machines/face-session.js';
import type { FaceSessionRecord, KycRecord } from '../../state/kyc.js';
import type { MockState } from '../../state/mock-state.js';
import type { UserRecord } from '../../state/users.js';
import { verifyStep } from '../kyc.js';
import { recordSession } from '../transitions.js';

/** Timer kind that expires a pending session 600 s after init. */
export const faceExpire = defineTask<{ sessionId: string }>(
  'kyc.face.expire',
  ({ sessionId }, { state, now, mock }) => {
    const session = state.kyc.faceSessions[sessionId];
    if (!session) return;
    const t = faceTransition(session, { type: 'expire' }, now);
    if (!t.ok) return;
    state.kyc.faceSessions[sessionId] = t.next;
    recordSession(mock, 'face-session', session, t.next.status, 'expire');
  },
);

/** `POST /kyc/face/init`: a PENDING session with its SDK token, expired by the clock after 600 s. */
export function startFace(
  state: MockState,
  userId: string,
  input: { redirectUrl: string; deviceId?: string },
): FaceSessionRecord {
  const sessionId = nextId(state, 'fce');
  const session: FaceSessionRecord = {
    sessionId,
    userId,
    sdkToken: `sdk_${randomString(state, 32)}`,
    status: 'PENDING',
    redirectUrl: input.redirectUrl,
    deviceId: input.deviceId,
    createdAt: nowIso(state),
    expiresAt: new Date(state.clock.now + FACE_SESSION_TTL_SECONDS * 1000).toISOString(),
  };
  state.kyc.faceSessions[sessionId] = session;
  schedule(state, faceExpire, `${FACE_SESSION_TTL_SECONDS}s`, { sessionId });
  return session;
}

/**
 * The user's liveness check on the face page with the scores it measured, which PASS or FAIL it by the
 * thresholds. Nothing changes when the session cannot take the check (the refused transition is returned) or
 * when the scores disagree with the `outcome` the caller meant (`disagrees`).
 */
export function checkFace(
  mock: ServiceInternals,
  session: FaceSessionRecord,
  check: { outcome: 'pass' | 'fail'; livenessScore: number; faceMatchScore: number },
  explanation: Explanation,
): FaceTransition | { ok: false; disagrees: true } {
  const { state } = mock;
  const { livenessScore, faceMatchScore } = check;
  const t = faceTransition(session, { type: 'checked', livenessScore, faceMatchScore }, state.clock.now);
  if (!t.ok) return t;
  if ((t.next.status === 'PASSED') !== (check.outcome === 'pass')) return { ok: false, disagrees: true };
  state.kyc.faceSessions[session.sessionId] = t.next;
  recordSession(mock, 'face-session', session, t.next.status, 'checked', explanation);
  return t;
}

/** `POST /kyc/face/verify` on a PASSED session: records the face step with the session's scores. */
export function verifyFace(
  mock: ServiceInternals,
  user: UserRecord,
  session: FaceSessionRecord,
): NonNullable<KycRecord['face']> {
  const face = { livenessScore: session.livenessScore ?? 0, faceMatchScore: session.faceMatchScore ?? 0 };
  return verifyStep(mock, user, 'face', face, 'POST /kyc/face/verify');
}
