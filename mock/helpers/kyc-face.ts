/**
 * Running the liveness check of a face session as its user would on the face page (what the hosted page calls).
 */
import { MockHelperError } from '../engine/errors.js';
import type { ServiceInternals } from '../engine/internals.js';
import { checkFace } from '../operations/kyc/face.js';
import type { FaceSessionRecord } from '../state/kyc.js';
import { refuse } from './lookup.js';

/** Input of `helpers.face.complete`: run the liveness check of a face session with the scores given. */
export interface FaceCompletion {
  sessionId: string;
  /** `pass` defaults to scores 0.93 / 0.88, `fail` to 0.42 / 0.31. */
  outcome: 'pass' | 'fail';
  livenessScore?: number;
  faceMatchScore?: number;
}

export function faceHelpers(mock: ServiceInternals) {
  return {
    /**
     * Runs the liveness check of a PENDING session as the user would on the face page. The result follows
     * the thresholds (liveness >= 0.8 and face match >= 0.7); `fail` with passing scores is refused.
     * @example
     * ```ts
     * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao', email: 'asha@example.com' });
     * const { sessionId } = await client.kyc.face.init(userId, { redirectUrl: 'https://partner.test/face' });
     * mock.helpers.face.complete({ sessionId, outcome: 'pass' });
     * ```
     */
    complete(input: FaceCompletion): { sessionId: string; status: string; redirectUrl: string } {
      const session: FaceSessionRecord | undefined = mock.state.kyc.faceSessions[input.sessionId];
      if (!session) throw new MockHelperError(`No face session ${input.sessionId} in this mock`);
      const pass = input.outcome === 'pass';
      const livenessScore = input.livenessScore ?? (pass ? 0.93 : 0.42);
      const faceMatchScore = input.faceMatchScore ?? (pass ? 0.88 : 0.31);
      const t = checkFace(
        mock,
        session,
        { outcome: input.outcome, livenessScore, faceMatchScore },
        {
          rule: 'helper.face.complete',
          because: `helpers.face.complete ran the check with liveness ${livenessScore} and face match ${faceMatchScore} (pass needs 0.8 and 0.7)`,
          section: '4.9',
          change: pass
            ? "outcome: 'fail' (or scores under the thresholds)"
            : "outcome: 'pass' (or scores at the thresholds)",
        },
      );
      if (!t.ok && 'disagrees' in t) {
        throw new MockHelperError(
          `Scores ${livenessScore} / ${faceMatchScore} ${pass ? 'fail' : 'pass'} the thresholds (liveness >= 0.8, face match >= 0.7), so outcome '${input.outcome}' cannot use them`,
        );
      }
      if (!t.ok) {
        refuse(
          `face session ${session.sessionId}`,
          input.outcome,
          t.state,
          t.allowed,
          'Initialise a new session with POST /kyc/face/init.',
          '4.9',
        );
      }
      return { sessionId: session.sessionId, status: t.next.status, redirectUrl: session.redirectUrl };
    },
  };
}
