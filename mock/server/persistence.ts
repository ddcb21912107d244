/**
 * The state file of a shared local sandbox (`--state-file <path>`): a SQLite database (node-sqlite3-wasm, SQLite
 * compiled to WebAssembly with real file I/O: the same engine on every Node line, nothing to compile), open in
 * the `sqlite3` shell. `PRAGMA application_id` says the file is ours, `PRAGMA user_version` its schema (2): one
 * table, `entries(collection, key, position, value, sum)`, of JSON values with a CRC-32 each:
 *
 * - `state`: the state by top-level part (`clock`, `http`...), its keyed collections left `{}` and lists `[]`;
 * - `users.byId`... (`KEYED_COLLECTIONS`): an entry per key; `timers`: a pending timer per ID;
 * - a list of IDs (and the ledger, `http.ledger`, key `''`) is `[]` at position -1 and an item per position
 *   from 0, so a list that grows writes only what it gained; any other value is one row at position -1.
 *
 * A keyed collection is read by key when first used (all of it when listed), so a start does not parse 100,000
 * transactions. Each request's changes are one transaction, committed (WAL, `synchronous=FULL`) before the
 * answer is written, so an answered write survives `kill -9`. A file not ours, damaged or newer is refused.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { Database, Statement } from 'node-sqlite3-wasm';
import { createEmptyState } from '../engine/runtime.js';
import type { MockSimulation as MockService } from '../simulation.js';
import { KEYED_COLLECTIONS, sliceOf } from '../state/keyed-collections.js';
import type { MockState } from '../state/mock-state.js';
import { keyed } from '../state/records.js';
import { checkState, InvalidStateError } from '../state/state-schema.js';
import type { Timer } from '../state/timers.js';

/** "INRP": the `application_id` of an inr-payouts mock state file. */
const APPLICATION_ID = 0x494e5250;
// 2: one `entries` table; 1 (three tables) was only ever built from the repository, and is refused with a way over.
const SCHEMA_VERSION = 2;
const LEDGER = 'http.ledger';
const named = KEYED_COLLECTIONS.map(([slice, name]) => [slice, name, `${slice}.${name}`] as const);

/** Why a state file is refused; the message names the file and what to do. */
export class StateFileError extends Error {
  override readonly name = 'StateFileError';
}
const refuse = (file: string, what: string, todo = `delete it (and ${file}-wal) to start afresh`): never => {
  throw new StateFileError(`The state file ${file} ${what}: ${todo}. It was left as it is.`);
};
const damaged = (file: string, what: string) =>
  refuse(file, what, `restore a copy, or delete it (and ${file}-wal) to start afresh`);
/** SQLite checks its pages' structure, not their content: a changed byte in a value is caught by this. */
const checksum = (key: string, value: string): number => crc32(value, crc32(key));

const require = createRequire(import.meta.url);
const alive = (pid: number): boolean => {
  try {
    return process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Opens `file` exclusively (the engine has no shared memory for WAL's index), its lock naming this process. */
function open(file: string): Database {
  const lock = `${file}.lock`;
  if (existsSync(lock)) {
    // The engine locks with a `<file>.lock` directory, holding our process ID: a dead server's is taken over.
    const pid = Number(existsSync(join(lock, 'pid')) ? readFileSync(join(lock, 'pid'), 'utf8') : Number.NaN);
    const why = Number.isInteger(pid)
      ? `is in use by process ${pid}`
      : `is locked (${lock} names no process)`;
    if (!Number.isInteger(pid) || alive(pid))
      refuse(file, why, `stop the server using it, or remove ${lock} if none does`);
    rmSync(lock, { recursive: true, force: true });
  }
  // Loaded only for a state file: compiling the engine takes a few tens of ms of every start that uses it.
  const { Database } = require('node-sqlite3-wasm') as typeof import('node-sqlite3-wasm');
  const db = new Database(file);
  try {
    db.exec('PRAGMA locking_mode = EXCLUSIVE; PRAGMA synchronous = FULL; PRAGMA user_version');
    writeFileSync(join(lock, 'pid'), String(process.pid));
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/** Closes `db` (the engine removes its lock directory once empty). */
function shut(db: Database, file: string): void {
  rmSync(join(`${file}.lock`, 'pid'), { force: true });
  if (db.isOpen) db.close();
}

/** The statements of a state file; `close()` finalizes them and closes it (the engine removes its lock). */
function statements(db: Database, file: string) {
  const prepare = (sql: string) => db.prepare(sql);
  const select = 'SELECT * FROM entries WHERE collection = ?';
  const all: Record<'one' | 'all' | 'cut' | 'clear' | 'put', Statement> = {
    one: prepare(`${select} AND key = ? ORDER BY position`),
    all: prepare(`${select} ORDER BY key, position`),
    cut: prepare('DELETE FROM entries WHERE collection = ? AND key = ? AND position >= ?'),
    clear: prepare('DELETE FROM entries WHERE collection = ?'),
    // An unchanged value (an entry read but not changed) is not written again.
    put: prepare(`INSERT INTO entries VALUES (?, ?, ?, ?, ?) ON CONFLICT DO UPDATE
      SET value = excluded.value, sum = excluded.sum WHERE value != excluded.value`),
  };
  /** The values of rows by key, checked; a list's items put into its `[]`. Met while serving: a 500. */
  const read = (collection: string, key?: string): Map<string, unknown> => {
    const out = new Map<string, unknown>();
    try {
      for (const row of key === undefined ? all.all.all([collection]) : all.one.all([collection, key])) {
        const [id, value] = [String(row.key), String(row.value)];
        if (row.sum !== checksum(id, value))
          throw new Error(`has a row whose checksum does not match (${id})`);
        const list = out.get(id);
        if (Array.isArray(list) && Number(row.position) >= 0) list.push(JSON.parse(value));
        else out.set(id, JSON.parse(value));
      }
    } catch (error) {
      if (error instanceof StateFileError) throw error;
      const why = error instanceof Error ? error.message : String(error);
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
    shut(db, file);
  };
  const atomically = (work: () => void) => {
    db.exec('BEGIN');
    try {
      work();
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  };
  return { db, read, write, clear: (collection: string) => all.clear.run([collection]), atomically, close };
}
type Rows = ReturnType<typeof statements>;

/** A list as last saved: the same array, grown only at its end since, needs only its new items written. */
type Saved = Map<string, { list: unknown[]; length: number }>;
const grownFrom = (saved: Saved, key: string, list: unknown[]): number => {
  const was = saved.get(key);
  return was?.list === list && list.length >= was.length ? was.length : 0;
};
const isPrimitive = (value: unknown) => value === null || typeof value !== 'object';

/** A keyed collection's entries in memory, the keys read or written, the keys touched since the last save. */
interface Watcher {
  target: Record<string, unknown>;
  known: Set<string>;
  touched: Set<string>;
  saved: Saved;
}
const watchers = new WeakMap<object, Watcher>();

/**
 * `target` (null prototype) behind a proxy that reads an entry from `rows` by key when first used (all of them
 * when the keys are listed) and notes the keys a request may change: read as an object, set or deleted.
 */
function watch(target: Record<string, unknown>, rows?: (key?: string) => Map<string, unknown>) {
  const keys = Object.keys(target);
  const watcher: Watcher = {
    target,
    known: new Set(keys),
    touched: new Set(rows ? [] : keys),
    saved: new Map(),
  };
  const adopt = (found: Map<string, unknown>) => {
    for (const [key, value] of found) {
      if (watcher.known.has(key)) continue;
      watcher.known.add(key);
      target[key] = value;
      if (Array.isArray(value)) watcher.saved.set(key, { list: value, length: value.length });
    }
  };
  // Both return true, so that a trap reads `load(key) && Reflect...`. A key not found is looked up again.
  const load = (key: string | symbol): true => {
    if (rows && typeof key === 'string' && !watcher.known.has(key)) adopt(rows(key));
    return true;
  };
  const touch = (key: string | symbol): true => {
    if (typeof key !== 'string') return true;
    watcher.touched.add(key);
    watcher.known.add(key);
    return true;
  };
  const proxy = new Proxy(target, {
    get(object, key) {
      const value = load(key) && Reflect.get(object, key);
      if (value !== null && typeof value === 'object') touch(key);
      return value;
    },
    has: (object, key) => load(key) && Reflect.has(object, key),
    getOwnPropertyDescriptor: (object, key) =>
      load(key) ? Reflect.getOwnPropertyDescriptor(object, key) : undefined,
    set: (object, key, value) => touch(key) && Reflect.set(object, key, value),
    defineProperty: (object, key, how) => touch(key) && Reflect.defineProperty(object, key, how),
    deleteProperty: (object, key) => touch(key) && Reflect.deleteProperty(object, key),
    ownKeys(object) {
      if (rows) adopt(rows());
      rows = undefined;
      return Reflect.ownKeys(object);
    },
  });
  watchers.set(proxy, watcher);
  return proxy;
}

/** The state in the file: its parts, timers, ledger and accounts now, checked by the state's schema. */
function readState(rows: Rows): MockState {
  const parts = rows.read('state');
  const known = Object.keys(createEmptyState('', 0));
  for (const name of parts.keys()) if (!known.includes(name)) throw new Error(`has an unknown part ${name}`);
  const state: Record<string, unknown> = Object.fromEntries(parts);
  // In the order they run: by time, then by scheduling number (`tmr_12` is 12).
  const sequence = ({ id }: Timer) => Number(id.slice(id.indexOf('_') + 1));
  state.timers = ([...rows.read('timers').values()] as Timer[]).sort(
    (a, b) => a.at - b.at || sequence(a) - sequence(b),
  );
  const http = state.http as Record<string, unknown> | undefined;
  if (http && Object.hasOwn(http, 'ledger')) http.ledger = rows.read(LEDGER).get('') ?? [];
  const names = new Set(['state', 'timers', LEDGER, ...named.map(([, , collection]) => collection)]);
  // Every collection the rows name, found by seeking the key from one name to the next.
  const next = (after: string) =>
    rows.db.get('SELECT min(collection) AS c FROM entries WHERE collection > ?', [after])?.c;
  for (let at = next(''); at != null; at = next(String(at))) {
    if (!names.has(String(at))) throw new Error(`has rows of an unknown collection ${at}`);
  }
  const later: (() => void)[] = [];
  for (const [slice, name, collection] of named) {
    const holder = state[slice] as Record<string, unknown> | undefined;
    if (!holder || typeof holder !== 'object' || !Object.hasOwn(holder, name)) continue;
    const proxy = watch(keyed(), (key) => rows.read(collection, key));
    // The accounts (a few) are in before the check, which looks the default one up.
    if (collection === 'accounts.byId') holder[name] = proxy;
    else later.push(() => (holder[name] = proxy));
  }
  checkState(state);
  for (const install of later) install();
  return state as unknown as MockState;
}

/**
 * Reads and checks the state in `file`; `undefined` when there is no file. Throws a {@link StateFileError}
 * naming the file and what to do, the file left as it is. Entries are read (their checksums checked) when used.
 */
export function readStateFile(file: string): { state: MockState; rows: Rows; close(): void } | undefined {
  if (!existsSync(file)) return undefined;
  if (statSync(file).size === 0) refuse(file, 'is empty');
  let [db, rows]: [Database?, Rows?] = [];
  try {
    const opened = open(file);
    db = opened;
    const pragma = (name: string) => Number(opened.get(`PRAGMA ${name}`)?.[name]);
    if (pragma('application_id') !== APPLICATION_ID)
      refuse(file, 'is a SQLite database of another application', 'give --state-file a new path');
    const version = pragma('user_version');
    const newer = `was written by a newer inr-payouts mock (schema ${version}; this one reads ${SCHEMA_VERSION})`;
    if (version > SCHEMA_VERSION) refuse(file, newer, 'upgrade inr-payouts, or give --state-file a new path');
    if (version < SCHEMA_VERSION)
      refuse(
        file,
        `was written by an earlier inr-payouts mock (schema ${version}; this one reads ${SCHEMA_VERSION})`,
        carryOver(file),
      );
    // Whole pages, or cut short (SQLite itself refuses a file with fewer pages than its header counts).
    const size = statSync(file).size;
    if (size % pragma('page_size'))
      refuse(file, `is cut short (${size} bytes, not whole pages)`, 'restore a copy');
    rows = statements(opened, file);
    const state = readState(rows);
    opened.exec('PRAGMA journal_mode = WAL');
    return { state, rows, close: rows.close };
  } catch (error) {
    if (rows) rows.close();
    else if (db) shut(db, file);
    if (error instanceof StateFileError) throw error;
    const why = error instanceof Error ? error.message : String(error);
    if (why === 'file is not a database' && readFileSync(file, 'utf8').trimStart().startsWith('{')) {
      const todo = carryOver(file, ` and ${file}.journal`);
      refuse(file, 'is JSON (a state file of an earlier inr-payouts mock?), not a SQLite database', todo);
    }
    if (why === 'file is not a database') refuse(file, 'is not a SQLite database');
    const what =
      error instanceof InvalidStateError || why.startsWith('has ') ? why : `cannot be read (${why})`;
    return damaged(file, error instanceof InvalidStateError ? `is ${why}` : what);
  }
}

/** What to do with a state file an earlier mock wrote: carry the state over through its helpers, or start afresh. */
const carryOver = (file: string, alsoDelete = '') =>
  `to carry its state over, serve it once more with the earlier mock and POST the data of its GET /__mock/snapshot to /__mock/restore of this one on a new file (docs/mock-server.md, "A state file of an earlier version"); or delete ${file}${alsoDelete} to start afresh`;

/** The state by top-level part, its keyed collections `{}` and lists `[]` (saved apart; absent ones left out). */
function restOf(state: MockState): Record<string, unknown> {
  const rest: Record<string, unknown> = { ...state, timers: [] };
  for (const [slice, name] of [...KEYED_COLLECTIONS, ['http', 'ledger'] as const]) {
    const copy = { ...(rest[slice] as Record<string, unknown>) };
    if (Object.hasOwn(copy, name)) copy[name] = Array.isArray(copy[name]) ? [] : {};
    rest[slice] = copy;
  }
  return rest;
}

/** A state read by {@link readStateFile}. */
export type LoadedState = NonNullable<ReturnType<typeof readStateFile>>;

/**
 * Keeps `service`'s state in `file`: call `save()` before answering each request; `close()` at exit. With
 * `loaded` (from {@link readStateFile}, whose state the service has adopted) the file holds the state already;
 * without, it is created.
 */
export function openStateFile(service: MockService, file: string, { loaded }: { loaded?: LoadedState } = {}) {
  const rows = loaded?.rows ?? create(file);
  // The state saved, its timers (a timer is replaced, never changed in place), ledger and top-level parts.
  let saved = loaded?.state;
  let timers = new Set<Timer>(saved?.timers);
  const ledger: Saved = new Map();
  const parts = new Map<string, string>();
  const keep = (list: unknown) => Array.isArray(list) && ledger.set('', { list, length: list.length });
  keep(saved?.http.ledger);
  const save = (): void => {
    const state = service.state as MockState;
    // A reset or restore replaced the whole state: it is saved whole.
    const whole = state !== saved;
    rows.atomically(() => {
      if (whole) {
        rows.db.exec('DELETE FROM entries');
        [saved, timers] = [state, new Set()];
        ledger.clear();
        parts.clear();
      }
      for (const [slice, name, collection] of named) {
        const holder = sliceOf(state, slice);
        const current = holder[name];
        let watcher = current && typeof current === 'object' ? watchers.get(current) : undefined;
        if (!watcher || whole) {
          // A collection replaced (or removed): saved whole, and watched from now on.
          if (!whole) rows.clear(collection);
          if (!current || typeof current !== 'object') continue;
          if (watcher) Object.keys(current); // a collection of another file: every entry read
          holder[name] = watch(watcher?.target ?? (current as Record<string, unknown>));
          watcher = watchers.get(holder[name] as object);
        }
        if (!watcher) continue;
        for (const key of watcher.touched) {
          const value = Object.hasOwn(watcher.target, key) ? watcher.target[key] : undefined;
          // Only the new items of a list that grew are checked: the saved ones were.
          const at = Array.isArray(value) ? grownFrom(watcher.saved, key, value) : 0;
          const list = Array.isArray(value) && value.slice(at).every(isPrimitive) ? value : undefined;
          rows.write(collection, key, value, list ? at : 0);
          if (list) watcher.saved.set(key, { list, length: list.length });
          else watcher.saved.delete(key);
          // Gone from the file too: a later lookup finds nothing there (and the set stays bounded).
          if (value === undefined) watcher.known.delete(key);
        }
        watcher.touched.clear();
      }
      const list = state.http.ledger;
      if (Array.isArray(list)) rows.write(LEDGER, '', list, grownFrom(ledger, '', list));
      keep(list);
      const now = new Set(state.timers);
      for (const timer of timers) if (!now.has(timer)) rows.write('timers', timer.id, undefined);
      for (const timer of now) if (!timers.has(timer)) rows.write('timers', timer.id, timer);
      timers = now;
      for (const [name, value] of Object.entries(restOf(state))) {
        const json = JSON.stringify(value);
        if (parts.get(name) !== json) rows.write('state', name, value);
        parts.set(name, json);
      }
    });
  };
  return {
    /** Writes what changed since the last save in one transaction, synced to disk. */
    save,
    /** Saves, then closes the file (its write-ahead log folded into it: one file at rest). */
    close(): void {
      save();
      rows.close();
    },
  };
}

/** A new state file, its schema committed before WAL so the file's own header says what it is from the start. */
function create(file: string): Rows {
  if (existsSync(file)) refuse(file, 'exists but was not read', 'read it first');
  mkdirSync(join(file, '..'), { recursive: true });
  const db = open(file);
  db.exec(`BEGIN; CREATE TABLE entries (collection TEXT, key TEXT, position INTEGER, value TEXT NOT NULL,
    sum INTEGER NOT NULL, PRIMARY KEY (collection, key, position)) WITHOUT ROWID;
    PRAGMA application_id = ${APPLICATION_ID}; PRAGMA user_version = ${SCHEMA_VERSION}; COMMIT;
    PRAGMA journal_mode = WAL;`);
  return statements(db, file);
}

/** A state file opened with {@link openStateFile}. */
export type StateFile = ReturnType<typeof openStateFile>;
