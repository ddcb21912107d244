/** What the KYC helper files share: finding a user and refusing a transition. */
import { MockHelperError, MockTransitionError } from '../engine/errors.js';
import type { ServiceInternals } from '../engine/internals.js';
import type { UserRecord } from '../state/users.js';

/** The user `userId`, or a `MockHelperError`. */
export function userOf(mock: ServiceInternals, userId: string): UserRecord {
  const user = mock.state.users.byId[userId];
  if (!user) throw new MockHelperError(`No user ${userId} in this mock`);
  return user;
}

/** Throws the `MockTransitionError` for a refused transition. */
export function refuse(
  subject: string,
  action: string,
  state: string,
  allowed: string[],
  hint: string,
  section?: string,
): never {
  throw new MockTransitionError({ subject, action, state, allowed, hint, section });
}
