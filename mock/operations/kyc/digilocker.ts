/**
 * Document-locker consent (spec 3.2, 4.4): a session opens PENDING for 600 s; the user approves (VERIFIED,
 * with the Aadhaar and PAN it shares) or denies (FAILED); an unanswered session EXPIRES on the clock.
 */
import { DIGILOCKER_SESSION_TTL_SECONDS } from '../../../src/schemas/common.js';
import type { DigilockerAadhaar } from '../../../src/schemas/kyc/digilocker.js';
import type { Explanation } from '../../engine/explain.js';
import { nextId } from '../../engine/ids.js';
import type { ServiceInternals } from '../../engine/internals.js';
import { defineTask } from '../../engine/tasks.js';
import { nowIso, schedule } from '../../engine/timers.js';
import { type DigilockerTransition, digilockerTransition } from '../../machines/digilocker-session.js';
import { SANDBOX_KYC } from '../../sandbox-values.js';
import type { DigilockerSessionRecord } from '../../state/kyc.js';
import type { MockState } from '../../state/mock-state.js';
import type { UserRecord } from '../../state/users.js';
import {
  applyAggregate,
  expectedName,
  kycRecord,
  maskAadhaar,
  maskPan,
  peekKycRecord,
  SAMPLE_AADHAAR_NUMBER,
} from '../kyc.js';
import { recordSession, recordStep } from '../transitions.js';

/** Timer kind that expires a session 600 s after init. */
export const digilockerExpire = defineTask<{ clientId: string }>(
  'kyc.digilocker.expire',
  ({ clientId }, { state, now, mock }) => {
    const session = state.kyc.digilockerSessions[clientId];
    if (!session) return;
    const t = digilockerTransition(session, { type: 'expire' }, now);
    if (!t.ok) return;
    state.kyc.digilockerSessions[clientId] = t.next;
    recordSession(mock, 'digilocker-session', session, t.next.status, 'expire');
  },
);

/** `POST /kyc/digilocker/init`: a PENDING session, expired by the clock after 600 s. */
export function initDigilocker(
  state: MockState,
  userId: string,
  input: { redirectUrl?: string; deviceId?: string },
): DigilockerSessionRecord {
  const clientId = nextId(state, 'dlk');
  const session: DigilockerSessionRecord = {
    clientId,
    userId,
    status: 'PENDING',
    redirectUrl: input.redirectUrl,
    deviceId: input.deviceId,
    createdAt: nowIso(state),
    expiresAt: new Date(state.clock.now + DIGILOCKER_SESSION_TTL_SECONDS * 1000).toISOString(),
  };
  state.kyc.digilockerSessions[clientId] = session;
  schedule(state, digilockerExpire, `${DIGILOCKER_SESSION_TTL_SECONDS}s`, { clientId });
  return session;
}

/** The user's answer on the consent page, with overrides of the data the locker shares. */
export interface DigilockerAnswer {
  outcome: 'approve' | 'deny';
  aadhaar?: Partial<DigilockerAadhaar>;
  pan?: { number?: string; name?: string };
}

/**
 * The user answers a session on the consent page: approval shares the Aadhaar and PAN (default: the name on
 * record, a sample address, `SANDBOX_KYC.digilockerPan`) and records the document-locker, Aadhaar and PAN
 * steps (spec 2.7); denial fails the session. A refused transition changes nothing and is returned.
 */
export function answerDigilocker(
  mock: ServiceInternals,
  user: UserRecord,
  session: DigilockerSessionRecord,
  answer: DigilockerAnswer,
  how: { trigger: string; explanation: Explanation },
): DigilockerTransition {
  const { state } = mock;
  const name = answer.aadhaar?.name ?? expectedName(user, peekKycRecord(state, user.id));
  const event =
    answer.outcome === 'approve'
      ? {
          type: 'approve' as const,
          aadhaar: {
            name,
            dob: '1990-01-01',
            gender: 'F',
            address: '12 MG Road, Bengaluru',
            maskedAadhaar: maskAadhaar(SAMPLE_AADHAAR_NUMBER),
            pincode: '560001',
            state: 'Karnataka',
            district: 'Bengaluru Urban',
            ...answer.aadhaar,
          },
          pan: {
            number: answer.pan?.number ?? SANDBOX_KYC.digilockerPan,
            name: answer.pan?.name ?? name.toUpperCase(),
          },
        }
      : { type: 'deny' as const, reason: 'The user denied consent' };
  const t = digilockerTransition(session, event, state.clock.now);
  if (!t.ok) return t;
  const record = kycRecord(state, user.id);
  state.kyc.digilockerSessions[session.clientId] = t.next;
  recordSession(mock, 'digilocker-session', session, t.next.status, event.type, how.explanation);
  const at = t.next.completedAt ?? nowIso(state);
  if (t.next.status === 'VERIFIED' && t.next.aadhaar && t.next.pan && !record.digilocker) {
    const { trigger } = how;
    record.digilocker = { verifiedAt: at };
    recordStep(mock, user.id, 'digilocker', trigger);
    if (!record.aadhaar) recordStep(mock, user.id, 'aadhaar', trigger);
    if (!record.pan) recordStep(mock, user.id, 'pan', trigger);
    record.aadhaar ??= {
      maskedNumber: t.next.aadhaar.maskedAadhaar ?? maskAadhaar(SAMPLE_AADHAAR_NUMBER),
      nameOnAadhaar: t.next.aadhaar.name,
      verifiedAt: at,
      source: 'digilocker',
    };
    const pan = t.next.pan.number;
    record.pan ??= { number: pan, maskedNumber: maskPan(pan), nameOnPan: t.next.pan.name, verifiedAt: at };
    applyAggregate(mock, user, record, { type: 'recompute' });
  }
  return t;
}
