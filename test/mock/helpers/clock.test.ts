import { describe, expect, it } from 'vitest';
import { schedule } from '../../../mock/engine/timers.js';
import { createMockService, type MockState } from '../../../mock/index.js';

/**
 * The standalone server runs due work after every request (`clock.runDue`). A run with nothing to do is not a
 * step of the recording, so a long-running server's bundle holds its requests, not one idle run per request;
 * a run that has work is a step, and its work runs.
 */

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
