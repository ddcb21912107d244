/**
 * `connectMock`: the helpers of a standalone server with the in-process types and errors.
 */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { connectMock, MockArgumentError, MockHelperError, MockTransitionError } from '../../mock/index.js';
import { type RunningMockServer, startMockServer } from '../../mock/server/server.js';

let running: RunningMockServer;
beforeAll(async () => {
  running = await startMockServer({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await running.close();
});

describe('connectMock', () => {
  it('calls the server and answers what the helper returned', async () => {
    const helpers = connectMock(`${running.url}/`);
    await helpers.reset();
    const user = await helpers.users.seedVerified({ mobile: '9876543210' });
    expect(user).toMatchObject({ mobile: '+919876543210', mobileVerified: true });
    expect(await helpers.clock.advance('1m')).toMatchObject({ now: '2025-01-01T00:01:00.000Z' });
    const pool = (await helpers.tranches.list()).length; // every account starts with a settled pool
    await helpers.tranches.add([{ rate: '84.10', inrAmount: '100000' }]);
    expect(await helpers.tranches.list()).toHaveLength(pool + 1);
  });

  it("rejects with the in-process helper's errors", async () => {
    const helpers = connectMock(running.url);
    await helpers.reset();
    const wrong = await helpers.otp
      .read({ userId: 'usr_1', channel: 'sms' as 'mobile' })
      .catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(MockArgumentError);
    expect(wrong).toMatchObject({ field: 'channel' });
    const missing = await helpers.otp
      .read({ userId: 'usr_nobody', channel: 'mobile' })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(MockHelperError);
    expect(String((missing as Error).message)).toMatch(/usr_nobody/);
    const [user] = (await helpers.seed({ users: [{ mobile: '9876543210', mobileVerified: true }] })).users;
    const refused = await helpers.verification
      .complete({ userId: user?.userId ?? '', channel: 'mobile' })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(MockTransitionError);
    expect(refused).toMatchObject({ state: 'verified', allowed: ['unverified'] });
  });

  it('offers exactly the helpers GET /__mock lists: not the in-process-only webhooks.useFetch', async () => {
    const helpers = connectMock(running.url);
    const listing = (await fetch(`${running.url}/__mock`).then((r) => r.json())) as {
      data: { helpers: Record<string, string[]> };
    };
    const offered = Object.fromEntries(
      Object.entries(helpers).map(([name, value]) => [
        name,
        typeof value === 'function' ? 'top-level' : Object.keys(value).sort(),
      ]),
    );
    for (const [group, actions] of Object.entries(listing.data.helpers)) {
      if (group === '') for (const action of actions) expect(offered[action]).toBe('top-level');
      else expect(offered[group]).toEqual([...actions].sort());
    }
    expect(Object.keys(helpers.webhooks)).not.toContain('useFetch');
    expectTypeOf(helpers.webhooks).not.toHaveProperty('useFetch');
  });
});
