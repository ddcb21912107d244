/**
 * Which file a `--state-file` path names, why a state file is refused, and who holds one that is in use.
 *
 * Every name beside the file (SQLite's `-wal`) comes from its real path, links resolved: a server started on
 * `link.db -> state.db` and one started on `state.db` meet at the same file and its lock, and a restart by either
 * name finds the same write-ahead log. The lock is SQLite's own (persistence-open.ts): the kernel's lock on the
 * file, held while the serving process lives and let go when it ends, however it ends.
 */
import { lstatSync, readFileSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { describeError } from '../../src/shared/describe-error.js';

/** Why a state file is refused; the message names the file and what to do. */
export class StateFileError extends Error {
  override readonly name = 'StateFileError';
}

/** Refuses `file` (as the user named it): what is wrong, what to do, and that nothing was changed. */
export const refuse = (
  file: string,
  what: string,
  todo = `delete it (and ${file}-wal) to start afresh`,
): never => {
  throw new StateFileError(`The state file ${file} ${what}: ${todo}. It was left as it is.`);
};

/** The error's code (`EACCES`...), if it is a system error. */
export const codeOf = (error: unknown): string | undefined =>
  error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;

/** Refuses for a system error met on `path`, naming a permission problem as one (never as damage). */
export function refuseSystem(file: string, path: string, error: unknown, doing: string): never {
  const code = codeOf(error);
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    const user = process.getuid?.() ?? 'this user';
    return refuse(
      file,
      `cannot be used: ${doing} ${path} is not permitted (${code}) for user ${user}`,
      `give that user read and write permission to the file, its -wal and its folder (SQLite creates ${basename(file)}-wal beside it), or give --state-file a path it may write`,
    );
  }
  const why = describeError(error);
  return refuse(file, `cannot be used: ${doing} ${path} failed (${why})`, 'check the disk and the path');
}

/** The real path of `file`: links resolved, also a link to a file not made yet, and a folder not made yet. */
export function realPath(file: string): string {
  let path = resolve(file);
  for (let hops = 0; hops < 40; hops++) {
    try {
      return realpathSync(path);
    } catch {
      // Not there yet: a dangling link is followed by hand, a missing name resolved through its folder.
    }
    let link: string | undefined;
    try {
      if (lstatSync(path).isSymbolicLink()) link = readlinkSync(path);
    } catch {
      // Nothing at this name.
    }
    if (link === undefined) {
      const folder = dirname(path);
      return folder === path ? path : join(realPath(folder), basename(path));
    }
    path = resolve(dirname(path), link);
  }
  return refuse(file, 'is a chain of more than 40 links', 'give --state-file the path of the file itself');
}

/** SQLite's first lock byte: the range it locks starts here (the file's bytes there are never used). */
const LOCK_BYTES = 0x40000000;

/**
 * The process holding the kernel's write lock on the file at `real`, where the system lists locks
 * (`/proc/locks` on Linux; a process in another PID namespace, a container, is listed without its ID).
 */
function holderOf(real: string): number | undefined {
  try {
    const inode = String(statSync(real).ino);
    for (const line of readFileSync('/proc/locks', 'utf8').split('\n')) {
      // `1: POSIX  ADVISORY  WRITE 4242 fe:00:2157841 1073741824 1073742335`; a waiting lock reads `1: -> POSIX`.
      const [, type, , access, pid, device, start] = line.trim().split(/\s+/);
      if (type !== 'POSIX' || access !== 'WRITE' || device?.split(':')[2] !== inode) continue;
      if (Number(start) >= LOCK_BYTES && Number(pid) > 0) return Number(pid);
    }
  } catch {
    // No such list on this system: the holder goes unnamed.
  }
  return undefined;
}

/** Refuses `file`, whose lock another connection holds: in this process, or another (named where known). */
export function inUse(file: string, real: string): never {
  const pid = holderOf(real);
  if (pid === process.pid) refuse(file, 'is in use by this process already', 'close it first');
  return refuse(
    file,
    `is in use by another inr-payouts mock server${pid === undefined ? '' : ` (process ${pid})`}`,
    'stop that server (or the program that has it open), or give --state-file another path',
  );
}
