/**
 * The document-locker session (spec 3.2) as a pure function: PENDING until the user approves (VERIFIED,
 * with the Aadhaar and PAN data) or denies (FAILED), or 600 s pass (EXPIRED). Every end state is final.
 */
import type { DigilockerAadhaar } from '../../src/schemas/kyc/digilocker.js';
import type { DigilockerSessionRecord, DigilockerSessionState } from '../state/kyc.js';
import { allowedFrom, findTransition, sessionStatusAt, type Transition } from './transition-table.js';

/** What can happen to a session. */
export type DigilockerEvent =
  | { type: 'approve'; aadhaar: DigilockerAadhaar; pan: { number: string; name: string } }
  | { type: 'deny'; reason: string }
  | { type: 'expire' };

/** The next session, or a refusal naming the states the event is allowed from. */
export type DigilockerTransition =
  | { ok: true; next: DigilockerSessionRecord }
  | { ok: false; state: DigilockerSessionState; allowed: DigilockerSessionState[] };

/**
 * The session's rows, which `digilockerTransition` looks the next status up in (and the diagram in docs/diagrams/
 * is drawn from). Every end state is final: no row leaves it.
 */
export const DIGILOCKER_TRANSITIONS: readonly Transition<
  DigilockerSessionState,
  DigilockerEvent['type'],
  'within 600 s'
>[] = [
  { from: ['PENDING'], event: 'approve', when: 'within 600 s', to: 'VERIFIED' },
  { from: ['PENDING'], event: 'deny', when: 'within 600 s', to: 'FAILED' },
  { from: ['PENDING'], event: 'expire', to: 'EXPIRED' },
];

/**
 * Applies `event` at `now` (epoch ms). A PENDING session past its `expiresAt` only expires: consent given
 * after the 600 s is refused, as the real service would.
 */
export function digilockerTransition(
  session: DigilockerSessionRecord,
  event: DigilockerEvent,
  now: number,
): DigilockerTransition {
  const at = new Date(now).toISOString();
  const lapsed = now >= Date.parse(session.expiresAt);
  const row = findTransition(DIGILOCKER_TRANSITIONS, session.status, event.type, () => !lapsed);
  if (!row) {
    return {
      ok: false,
      state: sessionStatusAt(session, now),
      allowed: allowedFrom(DIGILOCKER_TRANSITIONS, event.type),
    };
  }
  switch (event.type) {
    case 'approve':
      return {
        ok: true,
        next: { ...session, status: row.to, completedAt: at, aadhaar: event.aadhaar, pan: event.pan },
      };
    case 'deny':
      return { ok: true, next: { ...session, status: row.to, completedAt: at, reason: event.reason } };
    default:
      return {
        ok: true,
        next: { ...session, status: row.to, reason: 'The session expired before consent was completed' },
      };
  }
}
