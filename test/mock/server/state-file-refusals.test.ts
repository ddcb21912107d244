/**
 * A state file that is not right (not SQLite, another application's, newer, damaged, truncated, changed by a
 * byte, carrying prototype keys) is refused with a message naming the file and what to do, and is left as it
 * was; nothing read from it reaches a prototype. Each case stands for a defect of the earlier JSON snapshot
 * and journal: a changed header taken as "superseded", a snapshot missing a collection or cut at a line, a
 * journal line polluting `Object.prototype`, a refusal naming `<file>.journal.journal`, no checksum.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStateFile, SCHEMA_VERSION, StateFileError } from '../../../mock/server/persistence.js';
import { checksum } from '../../../mock/server/persistence-rows.js';
import { startMockServer } from '../../../mock/server/server.js';

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
