/** Helpers the route files share: finding the caller's user, masking contact details. */
import { MockApiError } from '../engine/errors.js';
import type { RouteContext } from '../engine/route.js';
import type { UserRecord } from '../state/users.js';

/**
 * The user `userId` of the calling account, or a 404 in the route's shape: `USER_NOT_FOUND` in shape A,
 * `Not Found` in shape B (docs/assumptions.md). Another account's user is not found either.
 */
export function requireUser(
  ctx: Pick<RouteContext, 'state' | 'account' | 'shape'>,
  userId: string,
): UserRecord {
  const user = ctx.state.users.byId[userId];
  if (user && user.accountId === ctx.account.id) return user;
  // Shape B drops the code when the body is rendered.
  throw new MockApiError(404, {
    error: 'Not Found',
    message: `User ${userId} not found`,
    code: 'USER_NOT_FOUND',
  });
}

/** `+919876543210` → `+91******3210`. */
export function maskMobile(mobile: string): string {
  return `${mobile.slice(0, 3)}${'*'.repeat(Math.max(0, mobile.length - 7))}${mobile.slice(-4)}`;
}

/**
 * `asha.rao@example.com` → `a***@example.com`.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at <= 0 ? '***' : `${email.slice(0, 1)}***${email.slice(at)}`;
}

/** The 409 of a KYC step the user has already passed (shape A, `ALREADY_VERIFIED`); `what` names it: 'PAN'. */
export function alreadyVerified(what: string, userId: string): MockApiError {
  return new MockApiError(409, {
    error: 'Conflict',
    message: `The ${what} of user ${userId} is already verified`,
    code: 'ALREADY_VERIFIED',
  });
}
