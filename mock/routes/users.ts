/**
 * `POST /v2/users` (assumed, docs/assumptions.md): creates a user; the mobile is the identity within an
 * account (`USER_EXISTS`, 409). Emits `user.created`.
 */
import { ENDPOINTS } from '../../src/endpoints/index.js';
import { MockApiError } from '../engine/errors.js';
import { defineModule } from '../engine/module.js';
import { route } from '../engine/route.js';
import { createUser, normalizeMobile, userData } from '../operations/users.js';

const usersCreate = route(ENDPOINTS['users.create'], ({ body, state, account }) => {
  const { mobile, email, name, deviceId } = body;
  const user = createUser(state, account.id, { mobile, email, name, deviceId });
  if (!user) {
    throw new MockApiError(409, {
      error: 'Conflict',
      message: `Mobile number ${normalizeMobile(mobile)} is already registered`,
      code: 'USER_EXISTS',
    });
  }
  return { data: userData(user), message: 'User created' };
});

/** The users routes. */
export const users = defineModule({ name: 'users', routes: [usersCreate] });
