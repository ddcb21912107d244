/**
 * `--state-file`: a shared local sandbox keeps its state across a restart.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createUser, startServer } from './support.js';

const dir = mkdtempSync(join(tmpdir(), 'inr-payouts-mock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--state-file', () => {
  it('a restart loads the saved state: the same keys, users, OTPs and virtual time', async () => {
    const file = join(dir, 'state.json');
    const first = await startServer(['--state-file', file, '--seed', 'persist']);
    const userId = await createUser(first);
    await first.call('POST', `/v2/users/${userId}/verify/mobile/send`);
    const { otp } = (await first.helper('otp/read', { userId, channel: 'mobile' })).body.data as {
      otp: string;
    };
    await first.helper('clock/advance', '2m');
    const before = (await first.helper('clock/now')).body.data;
    expect(await first.stop()).toBe(0);
    expect(existsSync(file)).toBe(true);

    // Another seed on the command line does not matter: the file wins.
    const second = await startServer(['--state-file', file, '--seed', 'other']);
    try {
      expect(second.output()).toContain('(loaded)');
      expect(second.key).toBe(first.key);
      expect((await second.helper('clock/now')).body.data).toBe(before);
      const again = await second.call('POST', '/v2/users', { mobile: '9876543210' });
      expect(again.body).toMatchObject({ code: 'USER_EXISTS' });
      const confirmed = await second.call('POST', `/v2/users/${userId}/verify/mobile/confirm`, { otp });
      expect(confirmed.status).toBe(200);
    } finally {
      await second.stop();
    }
  });

  it('a state file that is not JSON stops the start with a message saying what to do', async () => {
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{ not json');
    await expect(startServer(['--state-file', file])).rejects.toThrow(/not readable JSON.*delete it/s);
  });
});
