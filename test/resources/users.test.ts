import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../src/index.js';
import { fail, ok, only, route, useClient } from '../support/msw.js';

const client = useClient();

describe('users.create (assumed POST /v2/users)', () => {
  it('POSTs mobile, email, name and reads the 201 user', async () => {
    const user = {
      userId: 'usr_1',
      mobile: '+919876543210',
      email: 'asha@example.com',
      name: 'Asha Rao',
      mobileVerified: false,
      emailVerified: false,
      createdAt: '2024-01-15T10:30:00Z',
    };
    const seen = route('post', '/v2/users', ok(user, {}, 201));
    const result = await client.users.create({
      mobile: '9876543210',
      email: 'asha@example.com',
      name: 'Asha Rao',
    });
    expect(only(seen, true)).toMatchObject({
      method: 'POST',
      path: '/v2/users',
      body: { mobile: '9876543210', email: 'asha@example.com', name: 'Asha Rao' },
    });
    expect(result).toEqual(user);
  });

  it('reads USER_EXISTS as a ConflictError', async () => {
    route(
      'post',
      '/v2/users',
      fail(409, { error: 'Conflict', message: 'Mobile number already registered', code: 'USER_EXISTS' }),
    );
    await expect(client.users.create({ mobile: '+919876543210' })).rejects.toBeInstanceOf(ConflictError);
  });
});
