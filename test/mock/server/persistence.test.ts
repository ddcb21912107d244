/**
 * `--state-file`: a shared local sandbox keeps its state across a restart, and every answered write
 * across a `kill -9`.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createUser, startServer } from './support.js';

const dir = mkdtempSync(join(tmpdir(), 'inr-payouts-mock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--state-file', () => {
  it('a restart loads the saved state: the same keys, users, OTPs and virtual time', async () => {
    const file = join(dir, 'state.db');
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

  it("the account's volume from completed transactions is the same after a restart, and keeps adding up", async () => {
    const file = join(dir, 'volume.db');
    const complete = async (
      server: Awaited<ReturnType<typeof startServer>>,
      mobile: string,
      amount: string,
    ) => {
      const { userId } = (await server.helper('users/seedVerified', { mobile })).body.data as {
        userId: string;
      };
      const created = await server.call('POST', '/v2/transactions', {
        userId,
        amount,
        asset: 'USDC',
        network: 'arbitrum',
      });
      expect(created.body).toMatchObject({ success: true });
      const { transactionId } = created.body.data as { transactionId: string };
      const wait = await server.helper('transactions/simulateDeposit', { transactionId });
      await server.helper('clock/advance', wait.body.data);
      await server.helper('clock/advance', '10s');
    };
    const volume = async (server: Awaited<ReturnType<typeof startServer>>) =>
      ((await server.call('GET', '/v2/account')).body.data as { volume: unknown }).volume;

    const first = await startServer(['--state-file', file, '--seed', 'volume']);
    await complete(first, '9876500001', '100');
    await complete(first, '9876500002', '20.50');
    expect(await volume(first)).toEqual({ monthlyUsd: 120.5, totalUsd: 120.5 });
    expect(await first.stop()).toBe(0);

    const second = await startServer(['--state-file', file]);
    expect(await volume(second)).toEqual({ monthlyUsd: 120.5, totalUsd: 120.5 });
    await complete(second, '9876500003', '10');
    expect(await second.stop()).toBe(0);

    const third = await startServer(['--state-file', file]);
    try {
      expect(await volume(third)).toEqual({ monthlyUsd: 130.5, totalUsd: 130.5 });
    } finally {
      await third.stop();
    }
  });

  it('a file that is not a state file stops the start, naming the file and what to do', async () => {
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'shopping list\n');
    await expect(startServer(['--state-file', file])).rejects.toThrow(
      /The state file \S+notes\.txt is not a SQLite database: delete it .*It was left as it is\./s,
    );
    expect(readFileSync(file, 'utf8')).toBe('shopping list\n');
  });

  it('a second server on a state file in use is refused; the first keeps it', async () => {
    const file = join(dir, 'shared.db');
    const first = await startServer(['--state-file', file]);
    try {
      await expect(startServer(['--state-file', file])).rejects.toThrow(
        /shared\.db is in use by another inr-payouts mock server \(process \d+\): stop that server/,
      );
      expect(await createUser(first)).toMatch(/^usr_/);
    } finally {
      expect(await first.stop()).toBe(0);
    }
  });

  it('kill -9 in the middle of a burst of writes loses none that were answered', async () => {
    const file = join(dir, 'burst.db');
    const first = await startServer(['--state-file', file, '--seed', 'burst']);
    const answered: string[] = [];
    let stop = false;
    // Four writers create users until the process dies under them; only the 201s are promised.
    const writer = async (lane: number) => {
      for (let i = 0; !stop; i++) {
        const mobile = `9${lane}${String(i).padStart(8, '0')}`;
        try {
          const answer = await first.call('POST', '/v2/users', { mobile });
          if (answer.status === 201) answered.push((answer.body.data as { userId: string }).userId);
        } catch {
          return; // the connection died with the process
        }
      }
    };
    const writers = [1, 2, 3, 4].map(writer);
    // A clock change between requests is saved too.
    await first.helper('clock/advance', '3m');
    const movedTo = String((await first.helper('clock/now')).body.data);
    while (answered.length < 150) await new Promise((resolve) => setTimeout(resolve, 5));
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    stop = true;
    await Promise.all(writers);
    expect(answered.length).toBeGreaterThanOrEqual(150);

    const second = await startServer(['--state-file', file]);
    try {
      const snapshot = (await second.helper('snapshot')).body.data as {
        users: { byId: Record<string, unknown> };
      };
      const missing = answered.filter((userId) => !(userId in snapshot.users.byId));
      expect(missing).toEqual([]);
      expect(String((await second.helper('clock/now')).body.data) >= movedTo).toBe(true);
      expect((await second.call('POST', '/v2/users', { mobile: '9000000001' })).status).toBe(201);
    } finally {
      await second.stop();
    }
  });
});
