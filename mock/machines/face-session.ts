/**
 * The face liveness session (spec 4.9) as a pure function: PENDING until the check runs, then PASSED
 * (liveness >= 0.8 and face match >= 0.7) or FAILED; a PENDING session expires after 600 s.
 */
import { FACE_MATCH_THRESHOLD, LIVENESS_THRESHOLD } from '../../src/schemas/common.js';
import type { FaceSessionRecord, FaceSessionState } from '../state/kyc.js';
import { allowedFrom, findTransition, sessionStatusAt, type Transition } from './transition-table.js';

/** What can happen to a session: the check ran with these scores, or time ran out. */
export type FaceEvent =
  | { type: 'checked'; livenessScore: number; faceMatchScore: number }
  | { type: 'expire' };

/** The next session, or a refusal. */
export type FaceTransition =
  | { ok: true; next: FaceSessionRecord }
  | { ok: false; state: FaceSessionState; allowed: FaceSessionState[] };

/** Whether scores pass the thresholds of spec 8. */
function facePasses(livenessScore: number, faceMatchScore: number): boolean {
  return livenessScore >= LIVENESS_THRESHOLD && faceMatchScore >= FACE_MATCH_THRESHOLD;
}

/**
 * The session's rows, which `faceTransition` looks the next status up in (and the diagram in docs/diagrams/ is
 * drawn from). Every end state is final.
 */
export const FACE_TRANSITIONS: readonly Transition<
  FaceSessionState,
  FaceEvent['type'],
  'liveness >= 0.8 and face match >= 0.7' | 'a score below its threshold'
>[] = [
  { from: ['PENDING'], event: 'checked', when: 'liveness >= 0.8 and face match >= 0.7', to: 'PASSED' },
  { from: ['PENDING'], event: 'checked', when: 'a score below its threshold', to: 'FAILED' },
  { from: ['PENDING'], event: 'expire', to: 'EXPIRED' },
];

/** Applies `event` at `now` (epoch ms). A PENDING session past its `expiresAt` only expires. */
export function faceTransition(session: FaceSessionRecord, event: FaceEvent, now: number): FaceTransition {
  const state = sessionStatusAt(session, now);
  // The expiry timer moves a lapsed session; anything else needs it still open.
  const from = event.type === 'expire' ? session.status : state;
  const passes = event.type === 'checked' && facePasses(event.livenessScore, event.faceMatchScore);
  const row = findTransition(FACE_TRANSITIONS, from, event.type, (when) =>
    when === 'a score below its threshold' ? !passes : passes,
  );
  if (!row) return { ok: false, state, allowed: allowedFrom(FACE_TRANSITIONS, event.type) };
  if (event.type === 'expire') return { ok: true, next: { ...session, status: row.to } };
  const { livenessScore, faceMatchScore } = event;
  return {
    ok: true,
    next: {
      ...session,
      status: row.to,
      completedAt: new Date(now).toISOString(),
      livenessScore,
      faceMatchScore,
    },
  };
}
