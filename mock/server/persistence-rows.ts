/**
 * The rows of a state file: reading a collection's values by key (checksums checked), writing them, one
 * transaction per save, and the verification of every row that runs soon after a start.
 *
 * A byte changed in a key is not found by reading that key: the row is filed under another key, and a lookup
 * finds nothing. So every row is checked once after the start, a slice at a time between requests; a lookup that
 * finds nothing before that is done finishes it first. Once a damaged row is known, a lookup in its collection
 * that finds nothing answers 500 (its key may be the damaged one), never a quiet "not found".
 */
import { crc32 } from 'node:zlib';
import type { Database, Statement } from 'node-sqlite3-wasm';
import { describeError } from '../../src/shared/describe-error.js';
import { refuse, StateFileError } from './persistence-lock.js';

/** Refuses `file` as damaged: what is wrong, and to restore a copy or start afresh. */
export const damaged = (file: string, what: string): never =>
  refuse(file, what, `restore a copy, or delete it (and ${file}-wal) to start afresh`);

/** SQLite checks its pages' structure, not their content: a changed byte in a key or value is caught by this. */
export const checksum = (key: string, value: string): number => crc32(value, crc32(key));

/** Rows checked per slice of the verification after a start. */
const SLICE = 2000;

/** The statements of a state file; `close()` finalizes them (the caller closes the database). */
export function statements(db: Database, file: string) {
  const prepare = (sql: string) => db.prepare(sql);
  const select = 'SELECT * FROM entries WHERE collection = ?';
  const all: Record<'one' | 'all' | 'cut' | 'clear' | 'put' | 'page', Statement> = {
    one: prepare(`${select} AND key = ? ORDER BY position`),
    all: prepare(`${select} ORDER BY key, position`),
    cut: prepare('DELETE FROM entries WHERE collection = ? AND key = ? AND position >= ?'),
    clear: prepare('DELETE FROM entries WHERE collection = ?'),
    // An unchanged value (an entry read but not changed) is not written again.
    put: prepare(`INSERT INTO entries VALUES (?, ?, ?, ?, ?) ON CONFLICT DO UPDATE
      SET value = excluded.value, sum = excluded.sum WHERE value != excluded.value`),
    page: prepare(`SELECT * FROM entries WHERE (collection, key, position) > (?, ?, ?)
      ORDER BY collection, key, position LIMIT ${SLICE}`),
  };
  /** Where the verification is; `undefined` once every row was checked. */
  let cursor: [string, string, number] | undefined;
  /** The first damaged row found by the verification, by collection. */
  const damage = new Map<string, string>();
  /** Checks the next slice of rows; true when every row has been checked. */
  const verifySlice = (): boolean => {
    if (!cursor) return true;
    const found = all.page.all(cursor);
    for (const row of found) {
      const [collection, key] = [String(row.collection), String(row.key)];
      if (row.sum !== checksum(key, String(row.value)) && !damage.has(collection)) {
        const what = `has a row whose checksum does not match (${key})`;
        damage.set(collection, what);
        console.error(`inr-payouts mock: the state file ${file} ${what} in ${collection}: restore a copy.`);
      }
      cursor = [collection, key, Number(row.position)];
    }
    if (found.length < SLICE) cursor = undefined;
    return cursor === undefined;
  };
  const verifyAll = () => {
    while (!verifySlice());
  };
  /** The values of rows by key, checked; a list's items put into its `[]`. Met while serving: a 500. */
  const read = (collection: string, key?: string): Map<string, unknown> => {
    const out = new Map<string, unknown>();
    try {
      const found = key === undefined ? all.all.all([collection]) : all.one.all([collection, key]);
      if (key !== undefined && found.length === 0) {
        verifyAll();
        const what = damage.get(collection);
        if (what) throw new StateFileError(what);
      }
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
    all.cut.run([collection, key, value === undefined ? -1 : at]);
    const put = (position: number, json: string) => {
      all.put.run([collection, key, position, json, checksum(key, json)]);
    };
    if (Array.isArray(value)) {
      if (at === 0) put(-1, '[]');
      for (let i = at; i < value.length; i++) put(i, JSON.stringify(value[i]));
    } else if (value !== undefined) put(-1, JSON.stringify(value));
  };
  const close = () => {
    for (const statement of Object.values(all)) {
      try {
        if (!statement.isFinalized) statement.finalize();
      } catch {
        // The error of its last step, already thrown by that step.
      }
    }
  };
  /** Runs `work` in one transaction; on an error, rolls back if SQLite has not already, and throws that error. */
  const atomically = (work: () => void) => {
    db.exec('BEGIN');
    try {
      work();
      db.exec('COMMIT');
    } catch (error) {
      // A failed write (a full disk) may have ended the transaction already: ROLLBACK would then throw, hiding it.
      if (db.inTransaction) {
        try {
          db.exec('ROLLBACK');
        } catch {
          // The first error says what went wrong.
        }
      }
      throw error;
    }
  };
  /** Starts checking every row: a slice now and then, between requests (and all at once if a lookup misses). */
  const verifyInBackground = () => {
    cursor = ['', '', -2];
    const next = () => {
      if (!db.isOpen || cursor === undefined) return;
      try {
        if (!verifySlice()) setTimeout(next, 1).unref();
      } catch (error) {
        console.error(`inr-payouts mock: the state file ${file} could not be verified:`, error);
      }
    };
    setTimeout(next, 1).unref();
  };
  return {
    db,
    read,
    write,
    clear: (collection: string) => all.clear.run([collection]),
    atomically,
    close,
    verifyInBackground,
    /** Whether every row has been checked (a test waits for it). */
    get verified() {
      return cursor === undefined;
    },
  };
}

/** The statements of an open state file. */
export type Rows = ReturnType<typeof statements>;
