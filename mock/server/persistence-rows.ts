/**
 * The rows of a state file: reading a collection's values by key, writing them, one transaction per save.
 *
 * SQLite's `integrity_check` at start sees the pages' structure and a key that no longer matches its index entry;
 * it cannot see a byte changed inside a value's text, nor a key changed in its row and its index entry alike. So
 * each row's `sum` keeps a CRC-32 of its key and value, compared when the row is read (a changed value answers 500,
 * never a wrong record), and above it 21 bits of the key's own CRC-32, compared for every row at start (a changed
 * key is refused there, not filed under another key where a lookup by the right one finds nothing).
 */
import type { DatabaseSync } from 'node:sqlite';
import { crc32 } from 'node:zlib';
import { describeError } from '../../src/shared/describe-error.js';
import { refuse } from './persistence-lock.js';

/** Refuses `file` as damaged: what is wrong, and to restore a copy or start afresh. */
export const damaged = (file: string, what: string): never =>
  refuse(file, what, `restore a copy, or delete it (and ${file}-wal) to start afresh`);

/** The key's own check: the top 21 bits of its CRC-32 (with the row's 32 below, a safe integer in JavaScript). */
export const keyCheck = (key: string): number => crc32(key) >>> 11;
/** A row's `sum`: its key's check above the CRC-32 of its key and value text. */
export const checksum = (key: string, value: string): number =>
  keyCheck(key) * 2 ** 32 + crc32(value, crc32(key));

/** The statements of a state file on `db`. */
export function statements(db: DatabaseSync, file: string) {
  const select = 'SELECT * FROM entries WHERE collection = ?';
  const all = {
    one: db.prepare(`${select} AND key = ? ORDER BY position`),
    all: db.prepare(`${select} ORDER BY key, position`),
    cut: db.prepare('DELETE FROM entries WHERE collection = ? AND key = ? AND position >= ?'),
    clear: db.prepare('DELETE FROM entries WHERE collection = ?'),
    // An unchanged value (an entry read but not changed) is not written again.
    put: db.prepare(`INSERT INTO entries VALUES (?, ?, ?, ?, ?) ON CONFLICT DO UPDATE
      SET value = excluded.value, sum = excluded.sum WHERE value != excluded.value`),
  };
  /** The values of rows by key, checked; a list's items put into its `[]`. Met while serving: a 500. */
  const read = (collection: string, key?: string): Map<string, unknown> => {
    const out = new Map<string, unknown>();
    try {
      const found = key === undefined ? all.all.all(collection) : all.one.all(collection, key);
      for (const row of found) {
        const [id, value] = [String(row.key), String(row.value)];
        if (row.sum !== checksum(id, value))
          throw new Error(`has a row whose checksum does not match (${id})`);
        const list = out.get(id);
        if (Array.isArray(list) && Number(row.position) >= 0) list.push(JSON.parse(value));
        else out.set(id, JSON.parse(value));
      }
    } catch (error) {
      const why = describeError(error);
      return damaged(file, `${why.startsWith('has ') ? why : `cannot be read (${why})`} in ${collection}`);
    }
    return out;
  };
  /** Puts `value` under `key`, its list items from `at` on (`at` 0 rewrites the list); `undefined` deletes. */
  const write = (collection: string, key: string, value: unknown, at = 0): void => {
    all.cut.run(collection, key, value === undefined ? -1 : at);
    const put = (position: number, json: string) => {
      all.put.run(collection, key, position, json, checksum(key, json));
    };
    if (Array.isArray(value)) {
      if (at === 0) put(-1, '[]');
      for (let i = at; i < value.length; i++) put(i, JSON.stringify(value[i]));
    } else if (value !== undefined) put(-1, JSON.stringify(value));
  };
  /** Runs `work` in one transaction; on an error, rolls back if SQLite has not already, and throws that error. */
  const atomically = (work: () => void) => {
    db.exec('BEGIN');
    try {
      work();
      db.exec('COMMIT');
    } catch (error) {
      // A failed write (a full disk) may have ended the transaction already: ROLLBACK then throws, hiding it.
      try {
        db.exec('ROLLBACK');
      } catch {
        // The first error says what went wrong.
      }
      throw error;
    }
  };
  return { db, read, write, clear: (collection: string) => all.clear.run(collection), atomically };
}

/** The statements of an open state file. */
export type Rows = ReturnType<typeof statements>;
