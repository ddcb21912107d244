/**
 * Opening a state file with Node's own SQLite (`node:sqlite`): the connection that serves it and holds its lock,
 * the connections that check it without changing it, what this user may do, and the file's ID against its `-wal`'s.
 *
 * The lock is SQLite's: the serving connection runs in `locking_mode = EXCLUSIVE`, so from its first read it
 * holds the kernel's (fcntl) lock on the file until it closes, and the kernel lets it go when the process ends
 * (`kill -9` included). Any other connection, in this process or another, meets `database is locked`.
 */
import { randomUUID } from 'node:crypto';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { pathToFileURL } from 'node:url';
import { codeOf, inUse, refuse, refuseSystem } from './persistence-lock.js';
import { checksum, keyCheck } from './persistence-rows.js';

type Engine = typeof import('node:sqlite');
let engine: Engine | undefined;

/**
 * `node:sqlite`, loaded only for a state file, on Node 22.15 or later (where it opens a `file:` URL, which the
 * checks need). Node 22 warns that SQLite is experimental as it loads: that one warning is kept from the server's
 * output (a partner can do nothing about it), every other passes.
 */
function sqlite(file: string): Engine {
  if (engine) return engine;
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  if (major < 22 || (major === 22 && minor < 15))
    refuse(
      file,
      `cannot be opened on Node ${process.versions.node}: its node:sqlite cannot open the file read-only to check it`,
      'run the server on Node 22.15 or later',
    );
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (!text.startsWith('SQLite is an experimental feature'))
      Reflect.apply(emit, process, [warning, ...rest]);
  }) as typeof process.emitWarning;
  try {
    engine = process.getBuiltinModule('node:sqlite') as Engine | undefined;
  } finally {
    process.emitWarning = emit;
  }
  if (engine) return engine;
  return refuse(
    file,
    `cannot be opened: Node ${process.versions.node} has no node:sqlite`,
    'run the server on Node 22.15 or later',
  );
}

/** Whether `error` is SQLite's `database is locked` (another connection holds the file). */
const isBusy = (error: unknown): boolean =>
  error instanceof Error && /database is locked|database table is locked/.test(error.message);

/**
 * Opens the serving connection on the real path `real` and takes the file's lock: read-write, `synchronous =
 * FULL`, WAL's index in this process's memory. A file another connection holds is refused as in use, at once.
 * `writing` takes the lock for a write (a file being made): a read alone holds a file in WAL mode.
 */
export function connect(file: string, real: string, writing = false): DatabaseSync {
  const db = new (sqlite(file).DatabaseSync)(real);
  try {
    db.exec('PRAGMA locking_mode = EXCLUSIVE; PRAGMA synchronous = FULL');
    if (writing) db.exec('BEGIN EXCLUSIVE');
    else db.prepare('PRAGMA user_version').get();
  } catch (error) {
    db.close();
    if (isBusy(error)) inUse(file, real);
    throw error;
  }
  return db;
}

/**
 * A read-only connection on `real` through a `file:` URL with SQLite's `options` (`immutable=1`...): it writes
 * nothing. Node reads such a URL from 22.15 on (a string is a plain path to it).
 */
function readOnly(file: string, real: string, options: string): DatabaseSync {
  const url = new URL(`${pathToFileURL(real).href}?${options}`);
  return new (sqlite(file).DatabaseSync)(url, { readOnly: true });
}

/**
 * Refuses `file` as in use if another connection holds its lock, changing nothing: a read-only connection asks
 * for the read lock, which a holder's lock refuses (`database is locked`); granted, it goes no further (a
 * read-only connection cannot take the write lock WAL's exclusive mode asks next), and lets it go.
 */
export function refuseIfHeld(file: string, real: string): void {
  const db = readOnly(file, real, 'mode=ro');
  try {
    db.exec('PRAGMA locking_mode = EXCLUSIVE');
    db.prepare('PRAGMA user_version').get();
  } catch (error) {
    if (isBusy(error)) inUse(file, real);
    // Anything else (not a database, damaged) is the checks' to name.
  } finally {
    db.close();
  }
}

/**
 * The connection the checks at start run on, read-only, before the serving connection takes the lock (no one
 * holds the file: refuseIfHeld just asked). SQLite's `unix-none` (`win32-none`) files take no lock, and WAL's
 * index is kept in this process's memory, so it creates no `-shm` and on close folds nothing into the file. It
 * runs only while this process holds no lock on the file: closing it would let that lock go (POSIX locks are the
 * process's). SQL reads a key's own check as `key_check(key)`.
 */
export function inspect(file: string, real: string): DatabaseSync {
  const vfs = process.platform === 'win32' ? 'win32-none' : 'unix-none';
  const db = readOnly(file, real, `vfs=${vfs}&mode=ro`);
  try {
    db.exec('PRAGMA locking_mode = EXCLUSIVE');
    db.function('key_check', { deterministic: true }, (key) =>
      typeof key === 'string' ? keyCheck(key) : -1,
    );
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/**
 * The file's identity: a random ID written when it is made, in the file itself before WAL begins, and never
 * changed (a reset keeps it). SQLite applies any `-wal` of the same page size to a file; the ID read through the
 * log, against the ID in the file alone, tells a log of another database (when the log holds that row's page:
 * always for a small file's).
 */
export const IDENTITY = 'file';
export const identify = (db: DatabaseSync) => {
  const id = JSON.stringify(randomUUID());
  db.prepare('INSERT INTO entries VALUES (?, ?, -1, ?, ?)').run(IDENTITY, 'id', id, checksum('id', id));
};
export function identityOf(db: DatabaseSync): string | undefined {
  try {
    const row = db.prepare(`SELECT value FROM entries WHERE collection = '${IDENTITY}' AND key = 'id'`).get();
    return typeof row?.value === 'string' ? (JSON.parse(row.value) as string) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The identity in the file alone, without its `-wal`: read `immutable` (SQLite then reads the file only, takes
 * no lock and opens no log). `undefined` without a log or without an identity.
 */
export function fileIdentity(file: string, real: string): string | undefined {
  const wal = `${real}-wal`;
  if (!existsSync(wal) || statSync(wal).size === 0) return undefined;
  try {
    const db = readOnly(file, real, 'immutable=1');
    try {
      return identityOf(db);
    } finally {
      db.close();
    }
  } catch {
    return undefined;
  }
}

/**
 * Refuses `file` unless this user may create files in the folder of `real` (SQLite makes the `-wal` there), and
 * read and write the file, its `-wal` and `-shm`, those there. Root may anything: only another user meets this.
 */
export function mayUse(file: string, real: string): void {
  const folder = dirname(real);
  for (const path of [folder, real, `${real}-wal`, `${real}-shm`]) {
    try {
      accessSync(path, path === folder ? constants.W_OK | constants.X_OK : constants.R_OK | constants.W_OK);
    } catch (error) {
      if (path === folder) refuseSystem(file, path, error, 'creating a file in');
      if (codeOf(error) !== 'ENOENT') refuseSystem(file, path, error, 'reading and writing');
    }
  }
}
