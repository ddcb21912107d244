/**
 * The end-user sessions the hosted pages act on (document-locker consent, face liveness). The pages find a
 * session in state by its id without depending on the KYC slice's exact layout, and complete it through
 * the helpers the KYC flows define, so the pages do exactly what a test's helper call would.
 */
import { describeError } from '../../src/shared/describe-error.js';
import { isPlainObject } from '../../src/shared/plain-object.js';
import { MockHelperError, MockTransitionError } from '../engine/errors.js';
import type { MockService } from '../service.js';

/** The two kinds of hosted session. */
export type SessionKind = 'digilocker' | 'face';

/** Per kind: the id field in the redirect query and the helper argument, the outcomes, the default status. */
export const SESSION_KINDS = {
  digilocker: {
    idField: 'clientId',
    title: 'Document locker consent',
    outcomes: { approve: 'VERIFIED', deny: 'FAILED' },
  },
  face: {
    idField: 'sessionId',
    title: 'Face liveness check',
    outcomes: { pass: 'VERIFIED', fail: 'FAILED' },
  },
} as const;

type Json = Record<string, unknown>;

function search(node: unknown, idField: string, id: string, depth: number): Json | undefined {
  if (!isPlainObject(node) || depth < 0) return undefined;
  if (node[idField] === id) return node;
  const keyed = Object.hasOwn(node, id) ? node[id] : undefined;
  if (isPlainObject(keyed)) return keyed;
  for (const value of Object.values(node)) {
    const found = search(value, idField, id, depth - 1);
    if (found) return found;
  }
  return undefined;
}

/** The stored session with this id (a copy), from the KYC slice first; undefined when there is none. */
export function findSession(service: MockService, kind: SessionKind, id: string): Json | undefined {
  const { idField } = SESSION_KINDS[kind];
  const state: unknown = service.state;
  const kyc = isPlainObject(state) ? state.kyc : undefined;
  const found = search(kyc, idField, id, 4) ?? search(state, idField, id, 4);
  return found ? structuredClone(found) : undefined;
}

/** What completing a session gave: where to send the user, or why it could not be done. */
export type Completion =
  | { ok: true; status: string; redirectUrl?: string }
  | { ok: false; httpStatus: number; message: string };

/**
 * The value as a web address (http or https), or undefined: a stored `javascript:` URL never becomes a link.
 */
export function httpUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    // Only web addresses: a stored `javascript:` URL must never become a redirect.
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

/** Completes a session through `helpers[kind].complete({ <idField>: id, outcome, ...extra })`. */
export async function completeSession(
  service: MockService,
  kind: SessionKind,
  id: string,
  outcome: string,
  extra: Json,
): Promise<Completion> {
  const { idField, outcomes } = SESSION_KINDS[kind];
  if (!Object.hasOwn(outcomes, outcome)) {
    const allowed = Object.keys(outcomes).join(' or ');
    return { ok: false, httpStatus: 400, message: `Unknown outcome '${outcome}': use ${allowed}` };
  }
  const group: unknown = Reflect.get(service.helpers, kind);
  const complete = isPlainObject(group) ? group.complete : undefined;
  if (typeof complete !== 'function') {
    return {
      ok: false,
      httpStatus: 501,
      message: `This mock has no helpers.${kind}.complete yet, so the ${SESSION_KINDS[kind].title.toLowerCase()} cannot be completed here`,
    };
  }
  let result: unknown;
  try {
    result = await complete.call(group, { [idField]: id, outcome, ...extra });
  } catch (error) {
    if (error instanceof MockTransitionError) return { ok: false, httpStatus: 409, message: error.message };
    if (error instanceof MockHelperError && !findSession(service, kind, id)) {
      return { ok: false, httpStatus: 404, message: error.message };
    }
    const message = describeError(error);
    return { ok: false, httpStatus: 400, message };
  }
  const session = findSession(service, kind, id);
  const fromResult = isPlainObject(result) ? result : {};
  const status =
    [session?.status, fromResult.status].find((s): s is string => typeof s === 'string') ??
    String(Reflect.get(outcomes, outcome));
  const redirectUrl = httpUrl(session?.redirectUrl) ?? httpUrl(fromResult.redirectUrl);
  return { ok: true, status, redirectUrl };
}

/** The partner's redirect URL with the outcome appended (`?status=...&clientId=...` or `&sessionId=...`). */
export function redirectTarget(redirectUrl: string, kind: SessionKind, id: string, status: string): string {
  const url = new URL(redirectUrl);
  url.searchParams.set('status', status);
  url.searchParams.set(SESSION_KINDS[kind].idField, id);
  return url.toString();
}
