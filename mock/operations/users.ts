/**
 * Users (spec 1.3; `POST /v2/users` assumed, docs/assumptions.md): registering one in an account, shared by the
 * create route and the seeding helpers, the create itself, and a user's wire form.
 */
import type { User } from '../../src/schemas/users.js';
import { emitEvent } from '../engine/events.js';
import { nextId } from '../engine/ids.js';
import { nowIso } from '../engine/timers.js';
import type { MockState } from '../state/mock-state.js';
import { pick } from '../state/records.js';
import { mobileKey, type UserRecord } from '../state/users.js';

/** An Indian mobile as stored: `+91` and the 10 digits (the schema already checked the form). */
export function normalizeMobile(mobile: string): string {
  return `+91${mobile.replace(/\D/g, '').slice(-10)}`;
}

/** The wire form of a user (absent optional fields are omitted, spec 1.3). */
export function userData(user: UserRecord): User {
  const fields = pick(user, ['mobile', 'email', 'name', 'mobileVerified', 'emailVerified', 'createdAt']);
  return { userId: user.id, ...fields };
}

/** What a new user is made of: the create body, or a seeded fixture. */
export type NewUser = Pick<UserRecord, 'mobile'> &
  Partial<Omit<UserRecord, 'id' | 'accountId' | 'createdAt'>>;

/** Adds a user to `accountId`, or returns undefined when the mobile is already registered there. */
export function registerUser(state: MockState, accountId: string, input: NewUser): UserRecord | undefined {
  const mobile = normalizeMobile(input.mobile);
  const index = mobileKey(accountId, mobile);
  if (state.users.idByMobile[index]) return undefined;
  const user: UserRecord = {
    ...input,
    mobileVerified: input.mobileVerified ?? false,
    emailVerified: input.emailVerified ?? false,
    id: nextId(state, 'usr'),
    accountId,
    mobile,
    createdAt: nowIso(state),
  };
  state.users.byId[user.id] = user;
  state.users.idByMobile[index] = user.id;
  return user;
}

/** `POST /v2/users`: registers the user and emits `user.created` (its payload as docs/webhook-events.md decides). */
export function createUser(state: MockState, accountId: string, input: NewUser): UserRecord | undefined {
  const user = registerUser(state, accountId, input);
  if (!user) return undefined;
  const { id: userId, mobile, email, createdAt } = user;
  emitEvent(state, accountId, 'user.created', { userId, mobile, email, createdAt });
  return user;
}
