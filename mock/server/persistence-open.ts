/**
 * Opening a state file: the engine on its real path (read-only for the checks), the lock taken first, the
 * engine's own lock a dead server left removed, what this user may do, and the file's ID against its `-wal`'s.
 */
import { randomUUID } from 'node:crypto';
import { accessSync, constants, existsSync, linkSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Database } from 'node-sqlite3-wasm';
import { codeOf, lockStateFile, realPath, refuseSystem, type StateFileLock } from './persistence-lock.js';
import { checksum } from './persistence-rows.js';

const require = createRequire(import.meta.url);

/**
 * Opens the engine on the real path `real`, exclusively (it has no shared memory for WAL's index). Read-only for
 * the checks at start: such a connection writes nothing, and on close does not fold the `-wal` into the file.
 */
export function connect(real: string, readOnly: boolean): Database {
  // Loaded only for a state file: compiling the engine takes a few tens of ms of every start that uses it.
  const { Database } = require('node-sqlite3-wasm') as typeof import('node-sqlite3-wasm');
  const db = new Database(real, { readOnly });
  try {
    db.exec('PRAGMA locking_mode = EXCLUSIVE; PRAGMA synchronous = FULL; PRAGMA user_version');
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/**
 * The engine's own lock, a `<real>.lock` directory it makes while the file is open and a killed server leaves
 * behind: removed once this server holds the file's lock (persistence-lock.ts), which tells a live holder.
 */
export const clearEngineLock = (real: string): void =>
  rmSync(`${real}.lock`, { recursive: true, force: true });

/**
 * The file's identity: a random ID written when it is made, in the file itself before WAL begins, and never
 * changed (a reset keeps it). SQLite applies any `-wal` of the same page size to a file; the ID read through the
 * log, against the ID in the file alone, tells a log of another database (when the log holds that row's page:
 * always for a small file's).
 */
export const IDENTITY = 'file';
export const identify = (db: Database) => {
  const id = JSON.stringify(randomUUID());
  db.run('INSERT INTO entries VALUES (?, ?, -1, ?, ?)', [IDENTITY, 'id', id, checksum('id', id)]);
};
export function identityOf(db: Database): string | undefined {
  try {
    const value = db.get(`SELECT value FROM entries WHERE collection = '${IDENTITY}' AND key = 'id'`)?.value;
    return typeof value === 'string' ? (JSON.parse(value) as string) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The identity in the file alone, without its `-wal`: read through a second name (a hard link) beside which
 * there is no log, read-only. `undefined` without a log, without an identity, or where links cannot be made.
 */
export function fileIdentity(real: string): string | undefined {
  const wal = `${real}-wal`;
  if (!existsSync(wal) || statSync(wal).size === 0) return undefined;
  const probe = `${real}.probe`;
  rmSync(probe, { force: true });
  rmSync(`${probe}.lock`, { recursive: true, force: true });
  try {
    linkSync(real, probe);
    const db = connect(probe, true);
    try {
      return identityOf(db);
    } finally {
      db.close();
    }
  } catch {
    return undefined;
  } finally {
    rmSync(probe, { force: true });
  }
}

/** Takes the lock of `file`, then clears the engine's own lock a dead server may have left. */
export function take(file: string): StateFileLock {
  const lock = lockStateFile(file, realPath(file));
  clearEngineLock(lock.real);
  return lock;
}

/** Whether this user may read and write `path` (root may anything: only another user meets this). */
export function mayWrite(file: string, path: string): void {
  try {
    accessSync(path, constants.R_OK | constants.W_OK);
  } catch (error) {
    if (codeOf(error) !== 'ENOENT') refuseSystem(file, path, error, 'reading and writing');
  }
}
