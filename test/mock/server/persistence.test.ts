import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStateFile, SCHEMA_VERSION, StateFileError } from '../../../mock/server/persistence.js';
import { checksum } from '../../../mock/server/persistence-rows.js';
import { startMockServer } from '../../../mock/server/server.js';
import { createUser, startServer } from './support.js';

/**
 * `--state-file`: a shared local sandbox keeps its state across a restart, and every answered write
 * across a `kill -9`.
 */

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

describe('state files that are refused', () => {
  /**
   * A state file that is not right (not SQLite, another application's, newer, damaged, truncated, changed by a
   * byte, carrying prototype keys) is refused with a message naming the file and what to do, and is left as it
   * was; nothing read from it reaches a prototype. Each case stands for a defect of the earlier JSON snapshot
   * and journal: a changed header taken as "superseded", a snapshot missing a collection or cut at a line, a
   * journal line polluting `Object.prototype`, a refusal naming `<file>.journal.journal`, no checksum.
   */

  const dir = mkdtempSync(join(tmpdir(), 'inr-payouts-refusals-'));
  /** A good state file's bytes: 40 users. */
  let good: Buffer;
  beforeAll(async () => {
    const file = join(dir, 'good.db');
    const server = await startMockServer({ port: 0, service: { seed: 'refusals' } });
    for (let i = 0; i < 40; i++) {
      server.service.helpers.users.seedVerified({ mobile: `90000000${String(i).padStart(2, '0')}` });
    }
    const stateFile = openStateFile(file);
    stateFile.keep(server.service);
    stateFile.close();
    await server.close();
    good = readFileSync(file);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  let count = 0;
  /** Writes `bytes` as a state file, reads it, and expects a refusal matching `why`, the file untouched. */
  function expectRefused(bytes: Buffer | string, why: RegExp): string {
    count += 1;
    const file = join(dir, `case-${count}.db`);
    writeFileSync(file, bytes);
    let message = '';
    let loaded: ReturnType<typeof openStateFile> | undefined;
    try {
      loaded = openStateFile(file);
      // Entries are read when first used: every one is read here.
      JSON.stringify(loaded?.state);
    } catch (error) {
      expect(error).toBeInstanceOf(StateFileError);
      message = (error as Error).message;
    }
    loaded?.close();
    expect(message).toMatch(why);
    expect(message).toContain(`The state file ${file} `);
    expect(message).toMatch(/: (delete|restore|serve|give).*It was left as it is\.$/s);
    expect(readFileSync(file).equals(Buffer.from(bytes))).toBe(true);
    // The engine's lock is let go: nothing is left beside the file.
    expect(existsSync(`${file}.lock`)).toBe(false);
    expect(existsSync(`${file}.pid`)).toBe(false);
    expect(existsSync(`${file}-wal`)).toBe(false);
    return message;
  }

  /** The good file with `change` made to a copy of its database first. */
  function changed(change: (db: DatabaseSync) => void): Buffer {
    count += 1;
    const file = join(dir, `changed-${count}.db`);
    writeFileSync(file, good);
    const db = new DatabaseSync(file);
    // As the mock opens it: WAL's index in this process's memory, no -shm.
    db.exec('PRAGMA locking_mode = EXCLUSIVE');
    change(db);
    db.close();
    return readFileSync(file);
  }

  describe('a state file that is not right is refused and left as it is', () => {
    it('a file that is not a database (JSON, text), or is empty', () => {
      expectRefused('{"stateFile":1,"generation":"g1"}\n{"rest":{}}\n', /is not a SQLite database/);
      expectRefused('hello, not SQLite\n'.repeat(20), /is not a SQLite database/);
      expectRefused('', /is empty/);
    });

    it("another application's SQLite database", () => {
      const foreign = changed((db) => db.exec('PRAGMA application_id = 0; CREATE TABLE notes (text)'));
      expectRefused(foreign, /is a SQLite database of another application: give --state-file a new path/);
    });

    it('a file written by another version, newer or earlier: refused saying so, never converted', () => {
      for (const version of [SCHEMA_VERSION + 1, SCHEMA_VERSION - 1, 1]) {
        expectRefused(
          changed((db) => db.exec(`PRAGMA user_version = ${version}`)),
          new RegExp(
            `written by another version of the inr-payouts mock \\(schema ${version}; this one reads ${SCHEMA_VERSION} only\\): serve it with the version that wrote it`,
          ),
        );
      }
    });

    it('a changed header byte, a damaged page, a file cut short (at a page or anywhere)', () => {
      const flip = (at: number) => {
        const bytes = Buffer.from(good);
        bytes[at] = (bytes[at] ?? 0) ^ 0xff;
        return bytes;
      };
      expectRefused(flip(16), /is cut short|is not a SQLite database/); // the page size
      expectRefused(flip(4096), /is damaged \(SQLite's integrity check: .*page 2/); // a page's type
      // Cut at a page: SQLite finds the pages its header counts past the file's end; inside one: the mock does.
      expectRefused(
        good.subarray(0, 4096 * 3),
        /cannot be read \(database disk image is malformed\): restore a copy/,
      );
      expectRefused(good.subarray(0, good.length - 100), /is cut short/);
    });

    it('a value changed inside a row, still valid JSON, fails its checksum', () => {
      // Inside the user's record, every copy of it (pages the file no longer uses may hold an older one).
      const bytes = Buffer.from(good);
      const field = '"mobile":"+919000000007"';
      let copies = 0;
      for (let at = bytes.indexOf(field); at >= 0; at = bytes.indexOf(field, at + 1), copies++) {
        bytes.write('8', at + field.length - 2); // another user's number: a valid value
      }
      expect(copies).toBeGreaterThan(0);
      expectRefused(bytes, /has a (row|key) whose checksum does not match/);
    });

    it('a collection or table missing', () => {
      expectRefused(
        changed((db) => db.exec('DROP TABLE entries')),
        /has a schema that is not the mock's \(no entries table\): give --state-file a new path/,
      );
      expectRefused(
        changed((db) => db.exec("DELETE FROM entries WHERE collection = 'state' AND key = 'users'")),
        /is not a mock state of version 1: users: /,
      );
    });

    it('prototype keys in names, keys and values never reach a prototype', () => {
      // The checksum the mock writes, so each row is judged on what it says.
      const insert = (sql: string, key: string, value: string) =>
        changed((db) => db.prepare(sql).run(key, value, checksum(key, value)));
      const polluted = '{"polluted":"yes"}';
      expectRefused(
        insert("INSERT INTO entries VALUES ('state', ?, -1, ?, ?)", '__proto__', polluted),
        /has an unknown part __proto__/,
      );
      expectRefused(
        insert("INSERT INTO entries VALUES ('__proto__.polluted', ?, -1, ?, ?)", 'x', polluted),
        /has rows of an unknown collection __proto__\.polluted/,
      );
      expectRefused(
        insert("INSERT INTO entries VALUES ('constructor', ?, -1, ?, ?)", 'x', polluted),
        /has rows of an unknown collection constructor/,
      );
      // A key or a value's field named __proto__ is data: an ID nobody has, a field nobody reads.
      const file = join(dir, 'proto-keys.db');
      writeFileSync(
        file,
        insert(
          "INSERT INTO entries VALUES ('users.idByMobile', ?, -1, ?, ?)",
          '__proto__',
          '{"__proto__":{"polluted":"yes"}}',
        ),
      );
      const loaded = openStateFile(file);
      const byMobile = loaded.state?.users.idByMobile as Record<string, unknown>;
      expect(Object.getPrototypeOf(byMobile)).toBeNull();
      expect(Object.hasOwn(byMobile, '__proto__')).toBe(true);
      expect(JSON.stringify(Reflect.get(byMobile, '__proto__'))).toBe('{"__proto__":{"polluted":"yes"}}');
      loaded.close();
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
    });
  });
});
