/**
 * The state file of a shared local sandbox (`--state-file <path>`): a SQLite database (node-sqlite3-wasm, SQLite
 * compiled to WebAssembly with real file I/O: the same engine on every Node line, nothing to compile), open in
 * the `sqlite3` shell. Schema version 1 (`PRAGMA user_version`; `PRAGMA application_id` says the file is ours):
 *
 * - `rest(name, value, sum)`: the state by top-level name as JSON (clock, counters...), its keyed collections
 *   and timers left `{}` and `[]` (saved apart; an absent collection is left out);
 * - `entries(collection, key, key_sum, value, sum)`: each entry of a keyed collection (`users.byId`...) and
 *   each pending timer (`timers`, by ID) as JSON; `[]` for a list, whose items are in `items`. An entry is read
 *   by its key when first used; a collection's keys (from their index) when it is listed;
 * - `items(collection, key, position, value, sum)`: the items of those lists and of the ledger (`http.ledger`),
 *   one row each, so a list that grows writes only what it gained.
 *
 * `sum` and `key_sum` are CRC-32s, checked when a row is read. Each request's changes (found by `changes.ts`)
 * are one transaction, committed (WAL, `synchronous=FULL`: synced) before the answer is written, so an answered
 * write survives `kill -9`. A file that is not ours, is damaged or is newer is refused, left as it is.
 */
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { Database, Statement } from 'node-sqlite3-wasm';
import { KEYED_COLLECTIONS, keyed } from '../core/records.js';
import { createEmptyState, type MockState } from '../core/state.js';
import { checkState, InvalidStateError } from '../core/state-schema.js';
import type { MockSimulation as MockService } from '../simulation.js';
import type { Timer } from '../state/timers.js';
import { type Changes, collectionName, GROWING_LISTS, TIMERS, trackState } from './changes.js';

/** "INRP": the `application_id` of an inr-payouts mock state file. */
const APPLICATION_ID = 0x494e5250;
const SCHEMA_VERSION = 1;
const SCHEMA = `
  CREATE TABLE rest (name TEXT PRIMARY KEY, value TEXT NOT NULL, sum INTEGER NOT NULL) WITHOUT ROWID;
  CREATE TABLE entries (collection TEXT NOT NULL, key TEXT NOT NULL, key_sum INTEGER NOT NULL,
    value TEXT NOT NULL, sum INTEGER NOT NULL);
  CREATE UNIQUE INDEX entry_keys ON entries (collection, key, key_sum);
  CREATE TABLE items (collection TEXT, key TEXT, position INTEGER, value TEXT NOT NULL, sum INTEGER NOT NULL,
    PRIMARY KEY (collection, key, position)) WITHOUT ROWID;
  PRAGMA application_id = ${APPLICATION_ID};
  PRAGMA user_version = ${SCHEMA_VERSION};`;

/**
 * A row's checksum (CRC-32 of its key and value): SQLite checks its pages' structure, not their content, so a
 * changed byte inside a value would otherwise load as another value.
 */
const checksum = (key: string, value: string): number => crc32(value, crc32(key));

/** A row's value, parsed once its checksum matches. */
function checkedValue(row: Record<string, unknown>, key: string): unknown {
  const value = String(row.value);
  if (row.sum !== checksum(key, value)) throw new Error(`has a row whose checksum does not match (${key})`);
  return JSON.parse(value);
}

/** Why a state file is refused; the message names the file and what to do. */
export class StateFileError extends Error {
  override readonly name = 'StateFileError';
}

const refuse = (file: string, what: string, todo = `delete it (and ${file}-wal) to start afresh`): never => {
  throw new StateFileError(`The state file ${file} ${what}: ${todo}. It was left as it is.`);
};

/** The 100-byte header of a SQLite file: where it says what it is, before SQLite reads (or changes) it. */
function checkHeader(file: string): void {
  const header = Buffer.alloc(100);
  const fd = openSync(file, 'r');
  let length: number;
  let size: number;
  try {
    length = readSync(fd, header, 0, 100, 0);
    size = fstatSync(fd).size;
  } finally {
    closeSync(fd);
  }
  const first = header.toString('utf8', 0, length).trimStart()[0];
  if (first === '{') {
    refuse(
      file,
      'is JSON (a state file of an earlier inr-payouts mock?), not the SQLite database this mock keeps its state in',
      `to carry its state over, serve it once more with the earlier mock, save the data of GET /__mock/snapshot and POST it to /__mock/restore of this one started on a new file (the commands: docs/mock-server.md, "A state file of an earlier version"); or delete it (and ${file}.journal) to start afresh`,
    );
  }
  if (length < 100 || header.toString('latin1', 0, 16) !== 'SQLite format 3\0') {
    refuse(file, length === 0 ? 'is empty' : 'is not a SQLite database');
  }
  // The page count is valid when the two counters agree (SQLite's rule): a file shorter than it was cut.
  const pageSize = header.readUInt16BE(16) === 1 ? 65536 : header.readUInt16BE(16);
  const pages = header.readUInt32BE(24) === header.readUInt32BE(92) ? header.readUInt32BE(28) : 0;
  if (size < pages * pageSize)
    refuse(file, `is cut short (${size} bytes of ${pages * pageSize})`, 'restore a copy');
  if (header.readUInt32BE(68) !== APPLICATION_ID) {
    refuse(file, 'is a SQLite database of another application', 'give --state-file a new path');
  }
  if (header.readUInt32BE(60) > SCHEMA_VERSION) {
    refuse(
      file,
      `was written by a newer inr-payouts mock (schema ${header.readUInt32BE(60)}; this one reads ${SCHEMA_VERSION})`,
      'upgrade inr-payouts, or give --state-file a new path',
    );
  }
}

/**
 * The engine's lock (a `<file>.lock` directory, which the engine uses instead of the platform's locks) left
 * by a server that died is taken over; one held by a running server refuses the start.
 */
function takeStaleLock(file: string): void {
  const lock = `${file}.lock`;
  if (!existsSync(lock)) return;
  const pid = Number(existsSync(join(lock, 'pid')) ? readFileSync(join(lock, 'pid'), 'utf8') : Number.NaN);
  const alive = (() => {
    try {
      return process.kill(pid, 0);
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  })();
  if (!Number.isInteger(pid) || (alive && pid !== process.pid)) {
    refuse(
      file,
      Number.isInteger(pid) ? `is in use by process ${pid}` : `is locked (${lock} names no process)`,
      `stop the server using it, or remove ${lock} if none does`,
    );
  }
  rmSync(lock, { recursive: true, force: true });
}

function open(file: string): Database {
  // Loaded only for a state file: compiling the engine takes a few tens of ms of every start that uses it.
  const { Database } = createRequire(import.meta.url)(
    'node-sqlite3-wasm',
  ) as typeof import('node-sqlite3-wasm');
  const db = new Database(file);
  try {
    // Exclusive: the engine has no shared memory for WAL's index; its lock is taken by the first read.
    db.exec('PRAGMA locking_mode = EXCLUSIVE; PRAGMA synchronous = FULL; PRAGMA user_version');
    writeFileSync(join(`${file}.lock`, 'pid'), String(process.pid));
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

function close(db: Database, file: string): void {
  // The engine removes its lock directory on close, if it is empty.
  rmSync(join(`${file}.lock`, 'pid'), { force: true });
  db.close();
}

/**
 * A state read from a state file: its keyed collections' entries are read from the database when first used.
 * @example
 * const loaded: LoadedState | undefined = readStateFile(file);
 */
export interface LoadedState {
  state: MockState;
  database: Database;
  /** Closes the database (the state's unread entries can no longer be read). */
  close(): void;
}

/** Reads one collection's rows by key; `keys()` lists them all (with their checksums checked). */
interface RowReader {
  value(key: string): { found: boolean; value?: unknown };
  keys(): string[];
}

/** An entry whose key is listed but whose value is not read yet. */
const UNREAD = Symbol('unread');

/**
 * A keyed collection (null prototype) whose entries are read from the database when first used, by key:
 * a start reads no entry of 100,000 transactions it may never be asked for. Listing its keys reads the keys.
 */
function unreadCollection(rows: RowReader): Record<string, unknown> {
  const target = keyed<unknown>();
  // Keys looked up (found or not), listed, written or deleted: the database has nothing newer for them.
  const known = new Set<string>();
  let listed = false;
  const read = (key: string | symbol) => {
    if (typeof key !== 'string') return;
    if (!known.has(key)) {
      known.add(key);
      const row = rows.value(key);
      if (row.found) target[key] = row.value;
    } else if (target[key] === UNREAD) target[key] = rows.value(key).value;
  };
  const claim = (key: string | symbol) => {
    if (typeof key === 'string') known.add(key);
  };
  const look = (key: string | symbol) => {
    if (typeof key === 'string' && !known.has(key)) read(key);
  };
  return new Proxy(target, {
    get(object, key) {
      read(key);
      return Reflect.get(object, key);
    },
    has(object, key) {
      look(key);
      return Reflect.has(object, key);
    },
    // A listed entry's value is read by a get, not by a look at its descriptor (as Object.keys does).
    getOwnPropertyDescriptor(object, key) {
      look(key);
      return Reflect.getOwnPropertyDescriptor(object, key);
    },
    set(object, key, value) {
      claim(key);
      return Reflect.set(object, key, value);
    },
    defineProperty(object, key, how) {
      claim(key);
      return Reflect.defineProperty(object, key, how);
    },
    deleteProperty(object, key) {
      claim(key);
      return Reflect.deleteProperty(object, key);
    },
    ownKeys(object) {
      for (const key of listed ? [] : rows.keys()) {
        if (known.has(key)) continue;
        known.add(key);
        target[key] = UNREAD;
      }
      listed = true;
      return Reflect.ownKeys(object);
    },
  });
}

/** Rows joined in SQL as `value \x1f sum` records split by `\x1e` (JSON text has neither raw): one string to read. */
const ITEMS = 'group_concat(value || char(31) || sum, char(30) ORDER BY position)';
function itemsOf(joined: unknown, key: string): unknown[] {
  return String(joined ?? '')
    .split('\x1e')
    .filter(Boolean)
    .map((record) => {
      const at = record.lastIndexOf('\x1f');
      return checkedValue({ value: record.slice(0, at), sum: Number(record.slice(at + 1)) }, key);
    });
}

/** Reads rows by key from the open database; what it finds wrong is refused naming the file. */
function rowReader(db: Database, file: string, prepared: Statement[]) {
  const prepare = (sql: string) => {
    const statement = db.prepare(sql);
    prepared.push(statement);
    return statement;
  };
  const statements = {
    value: prepare('SELECT value, sum FROM entries WHERE collection = ? AND key = ?'),
    items: prepare(`SELECT ${ITEMS} AS rows FROM items WHERE collection = ? AND key = ?`),
    keys: prepare('SELECT key, key_sum FROM entries WHERE collection = ?'),
  };
  const checked = <T>(collection: string, read: () => T): T => {
    try {
      return read();
    } catch (error) {
      // Met while serving, the request answers 500 with this.
      const why = error instanceof Error ? error.message : String(error);
      return refuse(
        file,
        `${why.startsWith('has ') ? why : `cannot be read (${why})`} in ${collection}`,
        `restore a copy, or delete it (and ${file}-wal) to start afresh`,
      );
    }
  };
  return {
    /** The rows of `collection`. */
    of: (collection: string): RowReader => ({
      // Run to their end (`all`, not `get`), so no read stays open.
      value: (key) =>
        checked(collection, () => {
          const [row] = statements.value.all([collection, key]);
          if (!row) return { found: false };
          const value = checkedValue(row, key);
          // `[]` stands for a list whose items are rows of `items` (a list of objects is saved whole).
          if (!Array.isArray(value) || value.length) return { found: true, value };
          const [items] = statements.items.all([collection, key]);
          return { found: true, value: itemsOf(items?.rows, key) };
        }),
      keys: () =>
        checked(collection, () =>
          statements.keys.all([collection]).map(({ key, key_sum }) => {
            if (crc32(String(key)) !== key_sum)
              throw new Error(`has a key whose checksum does not match (${key})`);
            return String(key);
          }),
        ),
    }),
  };
}

/**
 * Builds the state: its top-level parts, timers, ledger and accounts now (checked with the state's schema),
 * the other keyed collections' entries when first used (checked by their checksums).
 */
function readRows(db: Database, rows: ReturnType<typeof rowReader>): MockState {
  const known = Object.keys(createEmptyState('', 0));
  const state: Record<string, unknown> = {};
  for (const row of db.all('SELECT * FROM rest')) {
    const name = String(row.name);
    if (!known.includes(name)) throw new Error(`has an unknown part ${name}`);
    state[name] = checkedValue(row, name);
  }
  const timers = rows
    .of(TIMERS)
    .keys()
    .map((id) => rows.of(TIMERS).value(id).value as Timer);
  // In the order they run: by time, then by scheduling number (`tmr_12` is 12).
  const sequence = (timer: Timer) => Number(String(timer.id).slice(String(timer.id).indexOf('_') + 1));
  state.timers = timers.sort((a, b) => a.at - b.at || sequence(a) - sequence(b));
  const names = new Set([TIMERS]);
  const unread: (() => void)[] = [];
  for (const [slice, name] of [...KEYED_COLLECTIONS, ...GROWING_LISTS]) {
    const holder = state[slice] as Record<string, unknown> | undefined;
    const collection = collectionName(slice, name);
    names.add(collection);
    if (!holder || typeof holder !== 'object' || !Object.hasOwn(holder, name)) continue;
    if (Array.isArray(holder[name])) holder[name] = rows.of(collection).value('').value ?? [];
    // The accounts (a few) are read now: the state's check looks the default one up.
    else if (collection === 'accounts.byId')
      holder[name] = keyed({ ...unreadCollection(rows.of(collection)) });
    else unread.push(() => (holder[name] = unreadCollection(rows.of(collection))));
  }
  // Every collection the rows name, found by seeking the key index from one name to the next.
  for (let at = db.get('SELECT min(collection) AS c FROM entries')?.c; at != null; ) {
    if (!names.has(String(at))) throw new Error(`has rows of an unknown or absent collection ${at}`);
    at = db.get('SELECT min(collection) AS c FROM entries WHERE collection > ?', [String(at)])?.c;
  }
  // The shape of the whole state, before the other collections are put in: their entries have checksums.
  checkState(state);
  for (const install of unread) install();
  return state as unknown as MockState;
}

/**
 * Reads and checks the state in `file`; `undefined` when there is no file. Throws a {@link StateFileError}
 * with the file's name and what to do; a refused file is left as it is. The keyed collections' entries are
 * read (and their checksums checked) when first used: SQLite reports a damaged page when it reads it.
 * @example
 * const loaded = readStateFile('sandbox.db');
 */
export function readStateFile(file: string): LoadedState | undefined {
  if (!existsSync(file)) return undefined;
  takeStaleLock(file);
  checkHeader(file);
  let db: Database | undefined;
  const prepared: Statement[] = [];
  const release = () => {
    for (const statement of prepared) if (!statement.isFinalized) statement.finalize();
    if (db?.isOpen) close(db, file);
  };
  try {
    db = open(file);
    const state = readRows(db, rowReader(db, file, prepared));
    db.exec('PRAGMA journal_mode = WAL');
    return { state, database: db, close: release };
  } catch (error) {
    release();
    if (error instanceof StateFileError) throw error;
    const why = error instanceof Error ? error.message : String(error);
    const what =
      error instanceof InvalidStateError
        ? `is ${why}`
        : why.startsWith('has ')
          ? why
          : `cannot be read (${why})`;
    return refuse(file, what, `restore a copy, or delete it (and ${file}-wal) to start afresh`);
  }
}

/** Writes a request's changes to the database, in the caller's transaction. */
function writer(db: Database) {
  const statements = {
    clearEntries: db.prepare('DELETE FROM entries WHERE collection = ?'),
    clearItems: db.prepare('DELETE FROM items WHERE collection = ?'),
    put: db.prepare('INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?, ?)'),
    remove: db.prepare('DELETE FROM entries WHERE collection = ? AND key = ?'),
    cut: db.prepare('DELETE FROM items WHERE collection = ? AND key = ? AND position >= ?'),
    item: db.prepare('INSERT INTO items VALUES (?, ?, ?, ?, ?)'),
    rest: db.prepare('INSERT OR REPLACE INTO rest VALUES (?, ?, ?)'),
  };
  return {
    write({ cleared, entries, lists, rest }: Changes): void {
      for (const name of cleared) {
        statements.clearEntries.run([name]);
        statements.clearItems.run([name]);
      }
      for (const [collection, key, json] of entries) {
        if (json === undefined) {
          statements.remove.run([collection, key]);
          statements.cut.run([collection, key, 0]);
        } else statements.put.run([collection, key, crc32(key), json, checksum(key, json)]);
      }
      for (const [collection, key, at, values] of lists) {
        statements.cut.run([collection, key, at]);
        for (const [i, value] of values.entries())
          statements.item.run([collection, key, at + i, value, checksum(key, value)]);
      }
      for (const [name, json] of rest) statements.rest.run([name, json, checksum(name, json)]);
    },
    finalize: () => {
      for (const statement of Object.values(statements)) statement.finalize();
    },
  };
}

/**
 * Keeps `service`'s state in `file`: call `save()` before answering each request; `close()` at exit. With
 * `loaded` (from {@link readStateFile}: the service has adopted its state) the file holds the state already;
 * without, it is created.
 * @example
 * const stateFile = openStateFile(service, 'sandbox.db');
 * stateFile.save();
 */
export function openStateFile(service: MockService, file: string, { loaded }: { loaded?: LoadedState } = {}) {
  let db = loaded?.database;
  if (!db) {
    if (existsSync(file)) refuse(file, 'exists but was not read', 'read it first');
    mkdirSync(join(file, '..'), { recursive: true });
    db = open(file);
    // Before WAL: the header of the file itself says what it is from the start (see `checkHeader`).
    db.exec(`BEGIN; ${SCHEMA} COMMIT; PRAGMA journal_mode = WAL;`);
  }
  const live = db;
  const rows = writer(live);
  // A new file gets the whole state at its first save.
  let tracker = trackState(service.state as MockState, { everything: !loaded });
  const save = (): void => {
    // A reset or restore replaced the whole state: it is saved whole.
    const whole = service.state !== tracker.state;
    if (whole) tracker = trackState(service.state as MockState, { everything: true });
    const changes = tracker.collect();
    if (!changes) return;
    live.exec('BEGIN');
    try {
      if (whole) live.exec('DELETE FROM rest; DELETE FROM entries; DELETE FROM items');
      rows.write(changes);
      live.exec('COMMIT');
    } catch (error) {
      live.exec('ROLLBACK');
      throw error;
    }
  };
  return {
    /** Writes what changed since the last save in one transaction, synced to disk. */
    save,
    /** Saves, then closes the database (its write-ahead log folded into the file: one file at rest). */
    close(): void {
      save();
      rows.finalize();
      if (loaded) loaded.close();
      else close(live, file);
    },
  };
}

/**
 * A state file opened with {@link openStateFile}.
 * @example
 * let stateFile: StateFile | undefined;
 */
export type StateFile = ReturnType<typeof openStateFile>;
