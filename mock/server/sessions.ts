/**
 * The end-user sessions the hosted pages act on (document-locker consent, face liveness). The pages read a
 * session from the KYC slice by its id (that one entry: a state file's other entries stay unread), and complete
 * it through the helpers the KYC flows define, so the pages do exactly what a test's helper call would.
 */
import { describeError } from '../../src/shared/describe-error.js';
import { MockHelperError, MockTransitionError } from '../engine/errors.js';
import type { MockService } from '../service.js';
import type { DigilockerSessionRecord, FaceSessionRecord } from '../state/kyc.js';

/** The two kinds of hosted session. */
export type SessionKind = 'digilocker' | 'face';

/**
 * Per kind: its sessions' collection in the KYC slice, the id field in the redirect query and the helper
 * argument, the outcomes, the default status.
 */
export const SESSION_KINDS = {
  digilocker: {
    sessions: 'digilockerSessions',
    idField: 'clientId',
    outcomes: { approve: 'VERIFIED', deny: 'FAILED' },
  },
  face: { sessions: 'faceSessions', idField: 'sessionId', outcomes: { pass: 'VERIFIED', fail: 'FAILED' } },
} as const;

/** A stored session of either kind, as the pages read it. */
export type Session = Partial<DigilockerSessionRecord | FaceSessionRecord>;

/** The stored session with this id (a copy); undefined when there is none. */
export function findSession(service: MockService, kind: SessionKind, id: string): Session | undefined {
  const found: Session | undefined = service.state.kyc[SESSION_KINDS[kind].sessions][id];
  return found && structuredClone(found);
}

/** What completing a session gave: where to send the user, or why it could not be done. */
export type Completion =
  | { ok: true; status: string; redirectUrl?: string }
  | { ok: false; httpStatus: number; message: string };

/**
 * The value as a web address (http or https), or undefined: a stored `javascript:` URL never becomes a link or
 * a redirect.
 */
export function httpUrl(value: unknown): string | undefined {
  const url = typeof value === 'string' ? URL.parse(value) : null;
  return url && (url.protocol === 'http:' || url.protocol === 'https:') ? url.toString() : undefined;
}

/** Completes a session through `helpers[kind].complete({ <idField>: id, outcome, ...extra })`. */
export async function completeSession(
  service: MockService,
  kind: SessionKind,
  id: string,
  outcome: string,
  extra: Record<string, unknown>,
): Promise<Completion> {
  const { idField, outcomes } = SESSION_KINDS[kind];
  if (!Object.hasOwn(outcomes, outcome)) {
    const allowed = Object.keys(outcomes).join(' or ');
    return { ok: false, httpStatus: 400, message: `Unknown outcome '${outcome}': use ${allowed}` };
  }
  const helpers = service.helpers[kind];
  try {
    // The outcome is one of the kind's; the helper checks the rest of the input, as over HTTP.
    await Reflect.apply(helpers.complete, helpers, [{ [idField]: id, outcome, ...extra }]);
  } catch (error) {
    if (error instanceof MockTransitionError) return { ok: false, httpStatus: 409, message: error.message };
    if (error instanceof MockHelperError && !findSession(service, kind, id)) {
      return { ok: false, httpStatus: 404, message: error.message };
    }
    return { ok: false, httpStatus: 400, message: describeError(error) };
  }
  // The session the helper completed, as it stored it.
  const session = findSession(service, kind, id);
  const status = session?.status ?? String(Reflect.get(outcomes, outcome));
  return { ok: true, status, redirectUrl: httpUrl(session?.redirectUrl) };
}

/** The partner's redirect URL with the outcome appended (`?status=...&clientId=...` or `&sessionId=...`). */
export function redirectTarget(redirectUrl: string, kind: SessionKind, id: string, status: string): string {
  const url = new URL(redirectUrl);
  url.searchParams.set('status', status);
  url.searchParams.set(SESSION_KINDS[kind].idField, id);
  return url.toString();
}
