/**
 * The state file of a shared local sandbox (`--state-file <path>`): a SQLite database (Node's own `node:sqlite`),
 * open in the `sqlite3` shell. `PRAGMA application_id` says the file is ours, `PRAGMA user_version` its schema (5):
 * one table, `entries(collection, key, position, value, sum)`, of JSON values, each with its checksums:
 *
 * - `file`: the file's own random ID (key `id`), which tells a `-wal` of another file;
 * - `state`: the state by top-level part (`clock`, `http`...), its keyed collections left `{}` and lists `[]`;
 * - `users.byId`... (`KEYED_COLLECTIONS`): an entry per key; `timers`: a pending timer per ID;
 * - a list of IDs (and the ledger, `http.ledger`, key `''`) is `[]` at position -1 and an item per position
 *   from 0, so a list that grows writes only what it gained; any other value is one row at position -1.
 *
 * A keyed collection is read by key when first used (all of it when listed), so a start does not parse 100,000
 * transactions. Each request's changes are one transaction, committed (WAL, `synchronous=FULL`) before the
 * answer is written, so an answered write survives `kill -9`; a save that fails leaves no trace (keeper). The
 * serving connection holds SQLite's lock on the file from the start: one server per file. A file not ours, of
 * another schema, or damaged (SQLite's `integrity_check`, every key's check) is refused, checked on a read-only
 * connection so that it and its `-wal` stay as they were.
 */
import { existsSync, mkdirSync, statfsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { describeError } from '../../src/shared/describe-error.js';
import { createEmptyState } from '../engine/internals.js';
import type { MockService } from '../service.js';
import { KEYED_COLLECTIONS, sliceOf } from '../state/keyed-collections.js';
import type { MockState } from '../state/mock-state.js';
import { keyed } from '../state/records.js';
import { checkState, InvalidStateError } from '../state/state-schema.js';
import type { Timer } from '../state/timers.js';
import { realPath, refuse, refuseSystem, StateFileError } from './persistence-lock.js';
import {
  connect,
  fileIdentity,
  IDENTITY,
  identify,
  identityOf,
  inspect,
  mayUse,
  refuseIfHeld,
} from './persistence-open.js';
import { damaged, type Rows, statements } from './persistence-rows.js';
import { grownFrom, isPrimitive, type Saved, watch, watcherOf } from './persistence-watch.js';

export { StateFileError } from './persistence-lock.js';

/** "INRP": the `application_id` of an inr-payouts mock state file. */
const APPLICATION_ID = 0x494e5250;
/** The one schema this mock reads and writes; a file of any other is refused, never converted. */
export const SCHEMA_VERSION = 5;
const LEDGER = 'http.ledger';
const named = KEYED_COLLECTIONS.map(([slice, name]) => [slice, name, `${slice}.${name}`] as const);
/**
 * The one table of a state file, and its key as an index apart from the rows: `integrity_check` matches the two,
 * so a key changed on disk is a refusal at start, not a row filed under another key (a quiet 404).
 */
const ENTRIES = `CREATE TABLE entries (collection TEXT NOT NULL, key TEXT NOT NULL, position INTEGER NOT NULL,
    value TEXT NOT NULL, sum INTEGER NOT NULL, UNIQUE (collection, key, position))`;
const words = (sql: unknown) => String(sql).replace(/\s+/g, ' ').trim();

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
  const names = new Set([IDENTITY, 'state', 'timers', LEDGER, ...named.map(([, , c]) => c)]);
  for (const { collection } of rows.db.prepare('SELECT DISTINCT collection FROM entries').all()) {
    if (!names.has(String(collection))) throw new Error(`has rows of an unknown collection ${collection}`);
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

/** Checks what the file says it is (header, schema, every page and every key) on `db`; throws a refusal. */
function checkFile(db: DatabaseSync, file: string, real: string): void {
  const pragma = (name: string) => Number(db.prepare(`PRAGMA ${name}`).get()?.[name]);
  if (pragma('application_id') !== APPLICATION_ID)
    refuse(file, 'is a SQLite database of another application', 'give --state-file a new path');
  const version = pragma('user_version');
  if (version !== SCHEMA_VERSION)
    refuse(
      file,
      `was written by another version of the inr-payouts mock (schema ${version}; this one reads ${SCHEMA_VERSION} only)`,
      'serve it with the version that wrote it, or give --state-file a new path',
    );
  // Exactly our table: a trigger, index or view added to it would run, or answer, on every save.
  const schema = db.prepare('SELECT type, name, sql FROM sqlite_schema ORDER BY type, name').all();
  const ours = (row: (typeof schema)[number]) =>
    (row.name === 'entries' && words(row.sql) === words(ENTRIES)) ||
    (row.name === 'sqlite_autoindex_entries_1' && row.sql === null);
  const extra = schema.filter((row) => !ours(row));
  if (schema.length !== 2 || extra.length) {
    const what = extra.map((row) => `${row.type} ${row.name}`).join(', ') || 'no entries table';
    refuse(file, `has a schema that is not the mock's (${what})`, 'give --state-file a new path');
  }
  // Whole pages, or cut short (SQLite itself refuses a file with fewer pages than its header counts).
  const size = statSync(real).size;
  if (size % pragma('page_size'))
    refuse(file, `is cut short (${size} bytes, not whole pages)`, 'restore a copy');
  const found = db
    .prepare('PRAGMA integrity_check(3)')
    .all()
    .map((row) => String(row.integrity_check))
    .join('\n');
  const problems = found
    .replace('*** in database main ***', '')
    .trim()
    .replace(/\s*\n\s*/g, '; ');
  if (found !== 'ok') damaged(file, `is damaged (SQLite's integrity check: ${problems})`);
  // A key changed in its row and its index entry alike passes that check: its own check does not.
  const keys = db
    .prepare('SELECT collection, key FROM entries WHERE key_check(key) != sum >> 32 LIMIT 3')
    .all()
    .map((row) => `${row.key} in ${row.collection}`);
  if (keys.length) damaged(file, `is damaged (a key that does not match its check: ${keys.join('; ')})`);
}

/** Whether the file holds no state yet: made, then closed before a state was kept in it. */
const blank = (db: DatabaseSync): boolean =>
  db.prepare(`SELECT 1 FROM entries WHERE collection != '${IDENTITY}' LIMIT 1`).get() === undefined;

/**
 * Opens the state file `file` for a server: takes its lock (SQLite's own, held until {@link StateFile.close} or
 * the process ends), having read and checked the state it holds (none when there is no file yet). Throws a
 * {@link StateFileError} naming the file and what to do, the file, its `-wal` and `-shm` left byte for byte as
 * they were: every check runs on a read-only connection. Keyed entries are read (their checksums checked) when
 * used. {@link StateFile.keep} then keeps a service's state in it.
 */
export function openStateFile(file: string): StateFile {
  const real = realPath(file);
  if (!existsSync(real)) return create(file, real);
  if (!statSync(real).isFile()) refuse(file, 'is not a file', 'give --state-file the path of a file');
  mayUse(file, real);
  // A server that holds the file is named first: a file it is making is empty for a moment.
  refuseIfHeld(file, real);
  if (statSync(real).size === 0) refuse(file, 'is empty');
  let checking: DatabaseSync | undefined;
  try {
    const own = fileIdentity(file, real);
    checking = inspect(file, real);
    checkFile(checking, file, real);
    const seen = identityOf(checking);
    if (own !== undefined && seen !== own)
      refuse(
        file,
        `has a -wal (${file}-wal) written for another database (the file is ${own}, the log ${seen ?? 'no inr-payouts file'})`,
        `move ${file}-wal away: the writes it holds are not this file's (another sandbox's?), and without it the file opens as it was last folded in`,
      );
    if (!blank(checking)) readState(statements(checking, file));
  } catch (error) {
    checking?.close();
    // A server that took the file meanwhile is why it read oddly.
    refuseIfHeld(file, real);
    if (error instanceof StateFileError) throw error;
    const why = describeError(error);
    if (why === 'file is not a database') refuse(file, 'is not a SQLite database');
    if (error instanceof InvalidStateError) return damaged(file, `is ${why}`);
    return damaged(file, why.startsWith('has ') ? why : `cannot be read (${why})`);
  }
  checking.close();
  // Checked: opened to serve (the lock taken, SQLite takes in what the -wal holds), and read again on it.
  const served = connect(file, real);
  try {
    const rows = statements(served, file);
    const state = blank(served) ? undefined : readState(rows);
    served.exec('PRAGMA journal_mode = WAL');
    return keeper(file, real, rows, state);
  } catch (error) {
    served.close();
    throw error;
  }
}

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

/** Below this many bytes free, a failed write is put down to a full disk. */
const FULL_BELOW = 16 * 1024 * 1024;

/** What made a save fail, in words, and what to do: SQLite reports a full disk as full, or as a disk I/O error. */
function causeOf(error: unknown, real: string): { cause: string; todo: string } {
  const why = describeError(error);
  const folder = dirname(real);
  let free: number | undefined;
  try {
    const disk = statfsSync(folder);
    free = disk.bavail * disk.bsize;
  } catch {
    // Not known: the cause is SQLite's words alone.
  }
  if (free !== undefined && free < FULL_BELOW && /disk I\/O error|disk is full/.test(why))
    return {
      cause: `the disk holding ${folder} is full (${free} bytes free; SQLite: ${why})`,
      todo: 'free some space on it',
    };
  const room = free === undefined ? '' : `; ${free} bytes free on the disk holding ${folder}`;
  return { cause: `SQLite: ${why}${room}`, todo: 'check the disk and the file' };
}

/** What the store needs of a service to keep its state. */
type Kept = Pick<MockService, 'state' | 'adopt'>;

/** How often changes made between requests (timers of a real-time clock) are saved. */
const BETWEEN_REQUESTS_MS = 100;

/**
 * The store of the state file `file` at `real`, kept through `rows` (whose connection holds the file's lock):
 * `found` is the state the file held, `undefined` for a file just made. A save that fails changes nothing: SQLite rolls the transaction back, what the save notes of the file is
 * updated only after the commit, and the service's state is read back from the file (as last saved), so the
 * request that failed, and any request in flight while it did (`save(mark)` with its `mark()`), left no trace.
 */
function keeper(file: string, real: string, opened: Rows, found?: MockState) {
  let rows: Rows | undefined = opened;
  let service: Kept | undefined;
  let saving: NodeJS.Timeout | undefined;
  // The state saved, its timers (a timer is replaced, never changed in place), ledger and top-level parts.
  let saved: MockState | undefined;
  let timers = new Set<Timer>();
  const ledger: Saved = new Map();
  let parts = new Map<string, string>();
  /** Notes `state` as the file holds it, its top-level parts `written` as JSON (none: every part is written). */
  const noteSaved = (state: MockState, written = new Map<string, string>()) => {
    [saved, timers, parts] = [state, new Set(state.timers), written];
    ledger.clear();
    const list = state.http.ledger;
    if (Array.isArray(list)) ledger.set('', { list, length: list.length });
  };
  if (found) noteSaved(found);
  /** Bumped each time a failed save put the state back as last saved. */
  let generation = 0;
  /** Set when the state could not even be read back: every later save refuses. */
  let broken: string | undefined;

  /** Writes what changed; what it notes of the file is pushed to `done`, run once the commit has succeeded. */
  const write = (rows: Rows, state: MockState, whole: boolean, done: (() => void)[]) => {
    if (whole) rows.db.exec(`DELETE FROM entries WHERE collection != '${IDENTITY}'`);
    for (const [slice, name, collection] of named) {
      const holder = sliceOf(state, slice);
      const current = holder[name];
      let watcher = watcherOf(current);
      if (!watcher || whole) {
        // A collection replaced (or removed): saved whole, and watched from now on.
        if (!whole) rows.clear(collection);
        if (!current || typeof current !== 'object') continue;
        if (watcher) Object.keys(current); // a collection of another file: every entry read
        holder[name] = watch(watcher?.target ?? (current as Record<string, unknown>));
        watcher = watcherOf(holder[name]);
      }
      if (!watcher) continue;
      const { target, saved: lists, known, touched } = watcher;
      for (const key of touched) {
        const value = Object.hasOwn(target, key) ? target[key] : undefined;
        // Only the new items of a list that grew are checked: the saved ones were.
        const at = Array.isArray(value) ? grownFrom(lists, key, value) : 0;
        const list = Array.isArray(value) && value.slice(at).every(isPrimitive) ? value : undefined;
        rows.write(collection, key, value, list ? at : 0);
        done.push(() => {
          if (list) lists.set(key, { list, length: list.length });
          else lists.delete(key);
          // Gone from the file too: a later lookup finds nothing there (and the set stays bounded).
          if (value === undefined) known.delete(key);
        });
      }
      done.push(() => touched.clear());
    }
    const list = state.http.ledger;
    if (Array.isArray(list)) rows.write(LEDGER, '', list, whole ? 0 : grownFrom(ledger, '', list));
    const before = whole ? new Set<Timer>() : timers;
    const now = new Set(state.timers);
    for (const timer of before) if (!now.has(timer)) rows.write('timers', timer.id, undefined);
    for (const timer of now) if (!before.has(timer)) rows.write('timers', timer.id, timer);
    const written = new Map<string, string>();
    for (const [name, value] of Object.entries(restOf(state))) {
      const json = JSON.stringify(value);
      if (whole || parts.get(name) !== json) rows.write('state', name, value);
      written.set(name, json);
    }
    done.push(() => noteSaved(state, written));
  };

  /** After a failed save: the state put back as the file holds it; throws saying why and what to do. */
  const undo = (rows: Rows, kept: Kept, error: unknown): never => {
    const { cause, todo } = causeOf(error, real);
    generation += 1;
    try {
      const state = readState(rows);
      kept.adopt(state);
      noteSaved(state);
    } catch (reread) {
      const why = describeError(reread);
      broken = `The state file ${file} could not be read back after a failed save (${why}): restart the server`;
      throw new StateFileError(`${broken}. The save failed because ${cause}.`);
    }
    throw new StateFileError(
      `The state file ${file} was not written: ${cause}. This request changed nothing (the state is as last saved): ${todo}, then send it again.`,
    );
  };

  const save = (mark?: number): void => {
    if (broken) throw new StateFileError(broken);
    if (mark !== undefined && mark !== generation)
      throw new StateFileError(
        `The state file ${file} was not written: a save failed while this request was handled, and the state was put back as last saved. This request changed nothing: send it again.`,
      );
    if (!rows || !service) return;
    const [open, kept, state] = [rows, service, service.state as MockState];
    const done: (() => void)[] = [];
    try {
      // A reset or restore replaced the whole state: it is saved whole.
      open.atomically(() => write(open, state, state !== saved, done));
    } catch (error) {
      undo(open, kept, error);
    }
    for (const step of done) step();
  };
  return {
    /** The state the file held when opened; `undefined` for a file {@link openStateFile} made. */
    state: found,
    /**
     * Keeps `kept`'s state in the file from now on: a loaded state is adopted, a new file's state saved whole.
     * Changes made between requests (a real-time clock's timers) are saved within 100 ms.
     */
    keep(kept: Kept): void {
      service = kept;
      if (found) kept.adopt(found);
      save();
      saving = setInterval(() => {
        try {
          save();
        } catch (error) {
          console.error('inr-payouts mock: could not save the state:', error);
        }
      }, BETWEEN_REQUESTS_MS);
      saving.unref();
    },
    /**
     * Writes what changed since the last save in one transaction, synced to disk. With `mark` (taken when the
     * request began), refuses when a save failed since, which put back the state that request may have changed.
     */
    save,
    /** The mark of the state now: a request takes it when it begins, and gives it to {@link save}. */
    mark: (): number => generation,
    /** Saves, then closes the file (its write-ahead log folded into it: one file at rest) and lets its lock go. */
    close(): void {
      clearInterval(saving);
      try {
        save();
      } finally {
        rows?.db.close();
        rows = undefined;
      }
    },
  };
}

/**
 * A new state file at `real`, made under its lock (taken before the file has a byte, so that of servers started
 * together one makes it and the others are told it is in use), its schema committed before WAL so the file's own
 * header says what it is.
 */
function create(file: string, real: string): StateFile {
  try {
    mkdirSync(dirname(real), { recursive: true });
  } catch (error) {
    refuseSystem(file, dirname(real), error, 'creating the folder');
  }
  mayUse(file, real);
  let db: DatabaseSync;
  try {
    db = connect(file, real, true);
  } catch (error) {
    if (error instanceof StateFileError) throw error;
    return refuseSystem(file, real, error, 'creating');
  }
  try {
    // Made by another server between the look and the lock, and closed since: opened as any file is.
    if (statSync(real).size > 0) {
      db.exec('ROLLBACK');
      db.close();
      return openStateFile(file);
    }
    db.exec(
      `${ENTRIES}; PRAGMA application_id = ${APPLICATION_ID}; PRAGMA user_version = ${SCHEMA_VERSION};`,
    );
    identify(db);
    db.exec('COMMIT; PRAGMA journal_mode = WAL;');
  } catch (error) {
    db.close();
    throw error;
  }
  return keeper(file, real, statements(db, file));
}

/** A state file opened with {@link openStateFile}, held by the server that keeps its state in it. */
export type StateFile = ReturnType<typeof keeper>;
