/**
 * `POST /v2/users` (assumed, docs/assumptions.md): creates a user; the mobile is the identity within an
 * account (`USER_EXISTS`, 409). Emits `user.created`.
 */
import { type User, UserCreateRequest } from '../../src/schemas/users.js';
import { MockApiError } from '../core/errors.js';
import { emitEvent } from '../core/events.js';
import { nextId } from '../core/ids.js';
import { defineModule } from '../core/module.js';
import { route } from '../core/route.js';
import type { MockState } from '../core/state.js';
import { nowIso } from '../core/timers.js';
import { mobileKey, type UserRecord } from '../state/users.js';
import { normalizeMobile } from './shared.js';

/**
 * The wire form of a user (absent optional fields are omitted, spec 1.3).
 * @example
 * return { status: 201, data: userData(user) };
 */
export function userData(user: UserRecord): User {
  return {
    userId: user.id,
    mobile: user.mobile,
    email: user.email,
    name: user.name,
    mobileVerified: user.mobileVerified,
    emailVerified: user.emailVerified,
    createdAt: user.createdAt,
  };
}

/**
 * What a new user is made of: the create body, or a seeded fixture.
 * @example
 * const input: NewUser = { mobile: '9876543210', email: 'asha@example.com' };
 */
export type NewUser = Pick<UserRecord, 'mobile'> &
  Partial<Omit<UserRecord, 'id' | 'accountId' | 'createdAt'>>;

/**
 * Adds a user to `accountId`, or returns undefined when the mobile is already registered there.
 * @example
 * const user = registerUser(state, account.id, { mobile: '9876543210' });
 */
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

const createUser = route(
  'POST',
  '/v2/users',
  ({ body, state, account }) => {
    const { mobile, email, name, deviceId } = body;
    const user = registerUser(state, account.id, { mobile, email, name, deviceId });
    if (!user) {
      throw new MockApiError(409, {
        error: 'Conflict',
        message: `Mobile number ${normalizeMobile(mobile)} is already registered`,
        code: 'USER_EXISTS',
      });
    }
    // Payload as docs/webhook-events.md decides.
    emitEvent(state, account.id, 'user.created', {
      userId: user.id,
      mobile: user.mobile,
      email: user.email,
      createdAt: user.createdAt,
    });
    return { status: 201, data: userData(user), message: 'User created' };
  },
  { bodySchema: UserCreateRequest },
);

/** The users routes. @example modules.push(users) */
export const users = defineModule({ name: 'users', routes: [createUser] });
