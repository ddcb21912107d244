/**
 * The standalone server runs due work after every request (`clock.runDue`). A run with nothing to do is not a
 * step of the recording, so a long-running server's bundle holds its requests, not one idle run per request;
 * a run that has work is a step, and its work runs.
 */
import { describe, expect, it } from 'vitest';
import { schedule } from '../../../mock/engine/timers.js';
import { createMockService, type MockState } from '../../../mock/index.js';

describe('runDue', () => {
  it('with nothing due it changes nothing and records no step', async () => {
    const mock = createMockService();
    const before = mock.bundle().steps.length;
    const result = await mock.clock.runDue();
    expect(result).toEqual({ now: mock.clock.nowIso(), ran: 0 });
    expect(mock.bundle().steps.length).toBe(before);
  });

  it('with a timer due it runs it and records the step', async () => {
    const mock = createMockService();
    const ran: string[] = [];
    mock.clock.registerTask<{ name: string }>('test.due', ({ name }) => {
      ran.push(name);
    });
    schedule(mock.state as MockState, 'test.due', 0, { name: 'now' });
    const before = mock.bundle().steps.length;
    expect((await mock.clock.runDue()).ran).toBe(1);
    expect(ran).toEqual(['now']);
    expect(mock.bundle().steps.slice(before)).toEqual([{ type: 'clock', action: 'runDue' }]);
  });
});

describe('API keys', () => {
  it('a key that authenticated stops authenticating once its account is gone', async () => {
    const mock = createMockService();
    const before = mock.helpers.snapshot();
    const other = mock.helpers.accounts.create({ name: 'Other partner' });
    const account = (key: string) =>
      mock.fetch(`${mock.baseUrl}/v2/account`, { headers: { authorization: `Bearer ${key}` } });
    expect((await account(other.keys.sandbox)).status).toBe(200);
    expect((await account(other.keys.sandbox)).status).toBe(200);
    mock.helpers.restore(before);
    expect((await account(other.keys.sandbox)).status).toBe(401);
    expect((await account(mock.sandboxKey)).status).toBe(200);
  });
});
