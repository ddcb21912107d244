/** What the helper files share: finding an account or a user, and refusing a transition. */
import { MockHelperError, MockTransitionError } from '../engine/errors.js';
import type { ServiceInternals } from '../engine/internals.js';
import type { AccountRecord } from '../state/accounts.js';
import type { UserRecord } from '../state/users.js';

/** The account `accountId` (the default one when none is given), or a `MockHelperError`. */
export function accountOf(mock: ServiceInternals, accountId = mock.state.accounts.defaultId): AccountRecord {
  const account = mock.state.accounts.byId[accountId];
  if (!account) throw new MockHelperError(`No account ${accountId} in this mock`);
  return account;
}

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
