/**
 * What several scenarios do: make a user named with the run's prefix, make one ready to transact (mock
 * helpers), and send a body the client would refuse to send.
 */
import type { ScenarioTarget } from '../types.js';

/** A new user (spec 2.3; `POST /v2/users` assumed), its `deviceId` carrying the run's prefix. */
export async function newUser(t: ScenarioTarget): Promise<string> {
  const user = await t.client.users.create({ mobile: t.newMobile(), deviceId: t.name('device') });
  return user.userId;
}

/** A user whose KYC is verified with a verified bank account, made by the mock's helpers. */
export async function verifiedUser(t: ScenarioTarget, what: string): Promise<string> {
  const helpers = t.needHelpers(what);
  const { userId } = await helpers.users.seedVerified({ mobile: t.newMobile() });
  return userId;
}

/**
 * Sends `body` as is (the client checks requests before sending, and these scenarios are about what the
 * service answers to a bad one); resolves whatever the answer, since the answer is on the wire.
 */
export async function raw(
  t: ScenarioTarget,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
  query?: Record<string, string | number>,
): Promise<unknown> {
  return t.refused(t.client.request({ method, path, body, query }));
}
