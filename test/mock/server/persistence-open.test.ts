/**
 * The state file keeps its promises at the edges: a full disk loses no answered write and leaves no trace of the
 * request that failed; a refused file, its -wal and -shm are not changed; a link meets the same lock and -wal as
 * the real path; a damaged key answers 500, never a quiet 404; a foreign trigger, index or view is refused.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statfsSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { resolveOptions } from '../../../mock/engine/options.js';
import { initialState } from '../../../mock/operations/accounts.js';
import { openStateFile, SCHEMA_VERSION } from '../../../mock/server/persistence.js';
import { startMockServer } from '../../../mock/server/server.js';
import type { MockState } from '../../../mock/state/mock-state.js';

const dir = mkdtempSync(join(tmpdir(), 'inr-payouts-safety-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A server on `file` wired as the bin wires it: loaded if there, saved before each answer. */
async function serve(file: string) {
  const server = await startMockServer({
    port: 0,
    service: { seed: 'safety', startTime: '2025-03-01T09:00:00Z' },
    stateFile: openStateFile(file),
  });
  const call = async (method: string, path: string, body?: unknown, key?: string) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${server.service.sandboxKey}`,
        'Content-Type': 'application/json',
        ...(key ? { 'Idempotency-Key': key } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: JSON.parse(text || '{}') };
  };
  return {
    server,
    call,
    stop: () => server.close(),
  };
}

const hash = (path: string) =>
  existsSync(path) ? createHash('sha256').update(readFileSync(path)).digest('hex') : 'absent';
const hashes = (file: string) => [file, `${file}-wal`, `${file}-shm`].map(hash);

/** The users a file holds, read as a restart reads them. */
function usersIn(file: string): string[] {
  const loaded = openStateFile(file);
  const ids = Object.keys(loaded.state?.users.byId ?? {});
  loaded.close();
  return ids.sort();
}

/** Mounts a 4 MB tmpfs at a new folder; undefined where the machine does not allow it (not root, no mount). */
function tmpfs(): string | undefined {
  const at = join(dir, 'small-disk');
  mkdirSync(at);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', at], { stdio: 'ignore' });
    return at;
  } catch {
    return undefined;
  }
}
const disk = tmpfs();
afterAll(() => {
  // Lazily: a file still open (a test that failed) must not keep the mount.
  if (disk) execFileSync('umount', ['-l', disk]);
});

describe('a save that fails changes nothing', () => {
  // SQLite writes through its own file calls, out of JavaScript's reach: a full disk is a real one, a tmpfs.
  it.skipIf(!disk)(
    'a full disk (a real 4 MB tmpfs filled up; needs root and mount): 500 naming the cause, nothing kept in memory or on disk, the retry not a replay',
    async () => {
      const small = disk ?? dir;
      const file = join(small, 'full.db');
      const sandbox = await serve(file);
      const filler = join(small, 'filler');
      const fill = () => {
        const { bavail, bsize } = statfsSync(small);
        writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - 8192)));
        return () => rmSync(filler);
      };
      try {
        const created: string[] = [];
        for (const mobile of ['9100000001', '9100000002']) {
          const answer = await sandbox.call('POST', '/v2/users', { mobile });
          expect(answer.status).toBe(201);
          created.push(answer.body.data.userId);
        }
        const free = fill();
        // Each write after the disk filled: a 500 that names the cause, the request's change not kept.
        const failed: { mobile: string; key: string }[] = [];
        for (let i = 0; failed.length < 2 && i < 40; i++) {
          const mobile = `92000000${String(i).padStart(2, '0')}`;
          const key = `full-${i}`;
          const answer = await sandbox.call('POST', '/v2/users', { mobile, name: 'x'.repeat(2000) }, key);
          if (answer.status === 201) {
            created.push(answer.body.data.userId);
            continue;
          }
          expect(answer.status).toBe(500);
          expect(answer.body.code).toBe('INTERNAL_ERROR');
          expect(answer.body.message).toMatch(/the disk holding \S+ is full \(\d+ bytes free/);
          expect(answer.body.message).toContain('This request changed nothing');
          expect(answer.body.message).not.toContain('no transaction is active');
          failed.push({ mobile, key });
        }
        expect(failed).toHaveLength(2);
        const live = sandbox.server.service.state;
        expect(Object.keys(live.users.byId).sort()).toEqual([...created].sort());
        for (const { mobile } of failed)
          expect(Object.hasOwn(live.users.idByMobile, `+91${mobile}`)).toBe(false);
        free();
        // The same requests again, with the same keys: done now, not replays of an answer never kept.
        for (const { mobile, key } of failed) {
          const again = await sandbox.call('POST', '/v2/users', { mobile, name: 'x'.repeat(2000) }, key);
          expect(again.status).toBe(201);
          expect(again.headers.get('idempotent-replayed')).toBeNull();
          created.push(again.body.data.userId);
        }
        const later = await sandbox.call('POST', '/v2/users', { mobile: '9300000001' });
        expect(later.status).toBe(201);
        created.push(later.body.data.userId);
        await sandbox.stop();
        expect(usersIn(file)).toEqual([...created].sort());
      } finally {
        await sandbox.server.close().catch(() => undefined);
      }
    },
  );
});

describe('a refused file, its -wal and -shm are left byte for byte', () => {
  /** A crash image of a database `make` wrote in WAL mode: the file and its -wal as kill -9 leaves them. */
  function image(name: string, make: (db: DatabaseSync) => void): string {
    const live = join(dir, `${name}-live.db`);
    const db = new DatabaseSync(live);
    db.exec('PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL');
    make(db);
    const file = join(dir, `${name}.db`);
    copyFileSync(live, file);
    copyFileSync(`${live}-wal`, `${file}-wal`);
    db.close();
    writeFileSync(`${file}-shm`, 'shared memory of another reader');
    return file;
  }
  const entries = `CREATE TABLE entries (collection TEXT NOT NULL, key TEXT NOT NULL, position INTEGER NOT NULL,
    value TEXT NOT NULL, sum INTEGER NOT NULL, UNIQUE (collection, key, position))`;
  const rows = (db: DatabaseSync) => {
    for (let i = 0; i < 50; i++)
      db.prepare("INSERT INTO entries VALUES ('users.byId', ?, -1, '{}', 0)").run(`u${i}`);
  };
  const cases: [string, (db: DatabaseSync) => void, RegExp][] = [
    [
      'another application',
      (db) => db.exec('CREATE TABLE notes (text); INSERT INTO notes VALUES (1)'),
      /of another application/,
    ],
    [
      'another schema',
      (db) => {
        db.exec(`PRAGMA application_id = ${0x494e5250}; PRAGMA user_version = 4; ${entries}`);
        rows(db);
      },
      /written by another version of the inr-payouts mock \(schema 4; this one reads 5 only\)/,
    ],
    [
      'a foreign trigger',
      (db) => {
        db.exec(`PRAGMA application_id = ${0x494e5250}; PRAGMA user_version = ${SCHEMA_VERSION}; ${entries};
          CREATE TRIGGER wipe AFTER INSERT ON entries BEGIN DELETE FROM entries WHERE collection = 'users.byId'; END`);
        rows(db);
      },
      /has a schema that is not the mock's \(trigger wipe\)/,
    ],
  ];
  for (const [what, make, why] of cases) {
    it(what, () => {
      const file = image(what.replaceAll(' ', '-'), make);
      const before = hashes(file);
      expect(before[1]).not.toBe('absent');
      expect(() => openStateFile(file)).toThrow(why);
      expect(hashes(file)).toEqual(before);
      expect(
        readdirSync(dir).filter(
          (name) => name.startsWith(what.replaceAll(' ', '-')) && /\.(pid|lock)$/.test(name),
        ),
      ).toEqual([]);
    });
  }

  it('a file cut short, with its -wal beside it', () => {
    const file = image('cut', (db) => {
      db.exec(`PRAGMA application_id = ${0x494e5250}; PRAGMA user_version = ${SCHEMA_VERSION}; ${entries}`);
      rows(db);
      db.exec('PRAGMA wal_checkpoint');
      db.exec("INSERT INTO entries VALUES ('state', 'seed', -1, '\"\"', 0)");
    });
    const bytes = readFileSync(file);
    expect(bytes.length).toBeGreaterThan(4096);
    writeFileSync(file, bytes.subarray(0, bytes.length - 100));
    const before = hashes(file);
    expect(() => openStateFile(file)).toThrow(/is cut short|cannot be read/);
    expect(hashes(file)).toEqual(before);
  });

  it('an index or a view added to a file of ours is refused too', () => {
    for (const [sql, what] of [
      ['CREATE INDEX by_value ON entries (value)', 'index by_value'],
      ['CREATE VIEW users AS SELECT * FROM entries', 'view users'],
    ] as const) {
      const file = image(`extra-${what.replace(' ', '-')}`, (db) => {
        db.exec(
          `PRAGMA application_id = ${0x494e5250}; PRAGMA user_version = ${SCHEMA_VERSION}; ${entries}; ${sql}`,
        );
      });
      const before = hashes(file);
      expect(() => openStateFile(file)).toThrow(`has a schema that is not the mock's (${what})`);
      expect(hashes(file)).toEqual(before);
    }
  });
});

describe("a -wal that is not the file's", () => {
  const holder = (seed: string) => {
    const service = {
      state: initialState(resolveOptions({ seed })),
      adopt: (state: MockState) => {
        service.state = state;
      },
    };
    return service;
  };
  const keepIn = (service: ReturnType<typeof holder>, file: string) => {
    const opened = openStateFile(file);
    opened.keep(service);
    return opened;
  };
  it("another sandbox's -wal beside a good file is refused, both left as they are", () => {
    const mine = join(dir, 'mine.db');
    keepIn(holder('mine'), mine).close();
    const theirs = join(dir, 'theirs.db');
    const other = holder('theirs');
    const open = keepIn(other, theirs);
    other.state.clock.now += 1000;
    open.save();
    const file = join(dir, 'mixed.db');
    copyFileSync(mine, file);
    copyFileSync(`${theirs}-wal`, `${file}-wal`);
    open.close();
    const before = hashes(file);
    expect(() => openStateFile(file)).toThrow(/has a -wal \(\S+mixed\.db-wal\) written for another database/);
    expect(hashes(file)).toEqual(before);
    expect(existsSync(`${file}.probe`)).toBe(false);
  });
});

describe('a link to the state file', () => {
  it("meets the lock of the real path, and its -wal is the real path's", async () => {
    const real = join(dir, 'linked', 'state.db');
    mkdirSync(join(dir, 'linked'));
    const link = join(dir, 'link.db');
    symlinkSync(real, link); // dangling until the server creates the file
    const sandbox = await serve(link);
    try {
      expect(existsSync(real)).toBe(true);
      expect(() => openStateFile(real)).toThrow(/is in use by this process already|is in use by another/);
      const made: string[] = [];
      for (const mobile of ['9400000001', '9400000002', '9400000003']) {
        made.push((await sandbox.call('POST', '/v2/users', { mobile })).body.data.userId);
      }
      expect(existsSync(`${real}-wal`)).toBe(true);
      expect(existsSync(`${link}-wal`)).toBe(false);
      expect(() => openStateFile(link)).toThrow(/is in use by this process already|is in use by another/);
      // kill -9 leaves the file and its -wal: a restart by the real path finds every answered write.
      const crash = join(dir, 'crash-of-link');
      mkdirSync(crash);
      copyFileSync(`${real}-wal`, join(crash, 'state.db-wal'));
      copyFileSync(real, join(crash, 'state.db'));
      expect(usersIn(join(crash, 'state.db'))).toEqual(made.sort());
    } finally {
      await sandbox.stop();
    }
    // Stopped: the lock is let go, the log folded in, nothing left beside the file.
    expect(readdirSync(join(dir, 'linked'))).toEqual(['state.db']);
    openStateFile(link).close();
  });
});

describe('damage found, never a quiet 404', () => {
  /** A file of three users, closed; its bytes and the users' IDs. */
  async function threeUsers(name: string) {
    const file = join(dir, `${name}.db`);
    const sandbox = await serve(file);
    const ids: string[] = [];
    for (const mobile of ['9500000001', '9500000002', '9500000003'])
      ids.push((await sandbox.call('POST', '/v2/users', { mobile })).body.data.userId);
    await sandbox.stop();
    return { file, ids };
  }
  /** `bytes` with every copy of `from` replaced by `to` (the same length). */
  const replaced = (bytes: Buffer, from: string, to: string) => {
    let count = 0;
    for (let at = bytes.indexOf(from); at >= 0; at = bytes.indexOf(from, at + 1), count++)
      bytes.write(to, at);
    expect(count).toBeGreaterThan(0);
    return bytes;
  };

  it('one byte changed in a key, in its row or in its index: refused at start, the file left as it is', async () => {
    const { file, ids } = await threeUsers('damaged-key');
    const id = ids[1] ?? '';
    const other = `${id.slice(0, -1)}${id.endsWith('z') ? 'y' : 'z'}`;
    const good = readFileSync(file);
    const copies: number[] = [];
    for (let at = good.indexOf(`users.byId${id}`); at >= 0; at = good.indexOf(`users.byId${id}`, at + 1))
      copies.push(at);
    // The row and its index entry (and any older copy on a page no longer used).
    expect(copies.length).toBeGreaterThanOrEqual(2);
    for (const at of copies) {
      const bytes = Buffer.from(good);
      bytes.write(`users.byId${other}`, at);
      writeFileSync(file, bytes);
      try {
        openStateFile(file).close();
      } catch (error) {
        expect((error as Error).message).toMatch(
          /is damaged \(SQLite's integrity check: .+\): restore a copy/,
        );
        expect(readFileSync(file).equals(bytes)).toBe(true);
        continue;
      }
      // Opened: this copy was on a page the file no longer uses, and every user is found as it was.
      expect(usersIn(file)).toEqual([...ids].sort());
    }
  });

  it('one byte changed in a key, in its row and its index alike: refused at start, the file left as it is', async () => {
    const { file, ids } = await threeUsers('damaged-key-alike');
    const id = ids[1] ?? '';
    const other = `${id.slice(0, -1)}${id.endsWith('z') ? 'y' : 'z'}`;
    // Every copy at once: the row and its index entry still match, so SQLite's own check passes.
    const bytes = replaced(readFileSync(file), `users.byId${id}`, `users.byId${other}`);
    writeFileSync(file, bytes);
    expect(() => openStateFile(file)).toThrow(
      `is damaged (a key that does not match its check: ${other} in users.byId): restore a copy`,
    );
    expect(readFileSync(file).equals(bytes)).toBe(true);
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it('GET /__mock/snapshot meeting a damaged entry answers the documented 500, not HELPER_REJECTED', async () => {
    const { file } = await threeUsers('damaged-value');
    writeFileSync(file, replaced(readFileSync(file), '"mobile":"+919500000002"', '"mobile":"+919500000009"'));
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const sandbox = await serve(file);
    try {
      const response = await fetch(`${sandbox.server.url}/__mock/snapshot`);
      const body = (await response.json()) as { code: string; message: string };
      expect(response.status).toBe(500);
      expect(body.code).toBe('INTERNAL_ERROR');
      expect(body.message).toMatch(/has a row whose checksum does not match/);
    } finally {
      logged.mockRestore();
      await sandbox.stop();
    }
  });
});
