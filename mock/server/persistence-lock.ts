/**
 * Which file a `--state-file` path names, and the lock that keeps one server per file.
 *
 * Every name beside the file (the lock, SQLite's `-wal`) comes from its real path, links resolved: a server
 * started on `link.db -> state.db` and one started on `state.db` meet at the same lock, and a restart by either
 * name finds the same write-ahead log.
 *
 * The lock is `<real path>.pid`, made whole and then linked into place (`link` fails if the name exists), so it
 * is taken atomically and never seen half written, before the file is looked at. It names the server's process,
 * that process's start time and the machine's boot: a lock whose process is gone, or whose PID now belongs to a
 * process that started at another time (PIDs repeat after a container restarts), is stale and taken over
 * without anyone's help. A server renews its lock's time every 10 s: a lock of another host (or container),
 * or of a live process on a system without `/proc` (whose start time cannot be read), is in use while it is
 * renewed, and stale 60 s after its last renewal.
 */
import { randomUUID } from 'node:crypto';
import {
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
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
      `give that user read and write permission to the file, its -wal and its folder (the server creates ${basename(file)}.pid and -wal beside it), or give --state-file a path it may write`,
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

/** What a lock says about its holder. */
interface Holder {
  pid: number;
  /** The process's start time as `/proc/<pid>/stat` gives it, when the system has one. */
  start?: string;
  boot?: string;
  host: string;
  token: string;
}

const mtimeOf = (path: string): number => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
};
const readText = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};
/** A process's start time in clock ticks since boot (field 22 of its stat line, after its parenthesised name). */
const startOf = (pid: number): string | undefined => {
  const stat = readText(`/proc/${pid}/stat`);
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
};
const bootId = (): string | undefined => readText('/proc/sys/kernel/random/boot_id')?.trim();

function parseHolder(text: string | undefined): Holder | undefined {
  try {
    const value = JSON.parse(text ?? '') as Partial<Holder>;
    const { pid, host, token } = value;
    if (!Number.isInteger(pid) || typeof pid !== 'number' || pid <= 0) return undefined;
    if (typeof host !== 'string' || typeof token !== 'string') return undefined;
    return { pid, host, token, start: value.start, boot: value.boot };
  } catch {
    return undefined;
  }
}

/** How often a server renews its lock's time, and after how long without renewal a lock no one can check is stale. */
export const LOCK_RENEW_MS = 10_000;
export const LOCK_STALE_MS = 60_000;

/** Whether the lock's holder may still be serving the file (`renewed`: the lock's last renewal, epoch ms). */
function holds(holder: Holder | undefined, renewed: number): boolean {
  // Written whole before it is linked into place: a lock that does not parse (PID 0, -1, no token) is no server's.
  if (!holder) return false;
  // Another host (or a container of another name) runs processes this one cannot see: only the renewals tell.
  const unseen = () => Date.now() - renewed < LOCK_STALE_MS;
  if (holder.host !== hostname()) return unseen();
  if (holder.boot !== undefined && bootId() !== undefined && holder.boot !== bootId()) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if (codeOf(error) === 'ESRCH') return false;
  }
  const start = startOf(holder.pid);
  // Alive: the same process only if it started when the lock says (a PID is reused only after its process ended).
  if (start === undefined || holder.start === undefined) return unseen();
  return start === holder.start;
}

const describe = (holder: Holder): string =>
  `is in use by another inr-payouts mock server (process ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`})`;

/** A lock held by this process: `release()` removes it if it is still this lock. */
export interface StateFileLock {
  readonly real: string;
  release(): void;
}

/** Locks this process holds, by real path: a second open of one in this process is refused as in use. */
const held = new Map<string, StateFileLock>();

/**
 * Takes the lock of the state file at `real` (`file` is the path as given, for messages); throws a
 * {@link StateFileError} saying which server holds it, or that the folder may not be written.
 */
export function lockStateFile(file: string, real: string): StateFileLock {
  const lock = `${real}.pid`;
  if (held.has(real)) refuse(file, 'is in use by this process already', 'close it first');
  const token = randomUUID();
  const mine: Holder = {
    pid: process.pid,
    start: startOf(process.pid),
    boot: bootId(),
    host: hostname(),
    token,
  };
  const text = JSON.stringify(mine);
  const draft = `${lock}.${token}`;
  try {
    // The folder is made first if it is not there: the file is to be created in it.
    if (!existsSync(dirname(real))) mkdirSync(dirname(real), { recursive: true });
    writeFileSync(draft, text, { flag: 'wx' });
  } catch (error) {
    refuseSystem(file, dirname(real), error, 'creating a file in');
  }
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        linkSync(draft, lock);
        // Renewed while held, so that a server that cannot check this process tells a live lock from a stale one.
        const renewing = setInterval(() => {
          const now = new Date();
          if (readText(lock) === text) utimesSync(lock, now, now);
        }, LOCK_RENEW_MS);
        renewing.unref();
        const taken: StateFileLock = {
          real,
          release() {
            clearInterval(renewing);
            held.delete(real);
            // Only this lock: never one another server took over after it was judged stale.
            if (readText(lock) === text) rmSync(lock, { force: true });
          },
        };
        held.set(real, taken);
        return taken;
      } catch (error) {
        if (codeOf(error) !== 'EEXIST') refuseSystem(file, lock, error, 'creating');
      }
      const found = readText(lock);
      if (found === undefined) continue; // let go meanwhile: try again
      const holder = parseHolder(found);
      if (holds(holder, mtimeOf(lock)) && holder) {
        // A container of another name (a new one on the same volume) may be a killed one's successor.
        const lapse = Math.ceil((mtimeOf(lock) + LOCK_STALE_MS - Date.now()) / 1000);
        const unseen =
          holder.host === hostname()
            ? ''
            : `; if it ended without stopping (a container killed, a machine off), its lock lapses ${LOCK_STALE_MS / 1000} s after its last renewal, in ${lapse} s: start again then`;
        refuse(file, describe(holder), `stop that server, or give --state-file another path${unseen}`);
      }
      // Stale: moved aside under a name of ours, then checked to be the lock judged, not one taken since.
      const aside = `${lock}.stale.${token}`;
      try {
        renameSync(lock, aside);
      } catch {
        continue;
      }
      if (readText(aside) !== found) {
        try {
          linkSync(aside, lock);
        } catch {
          // Taken again by a third: that one stands.
        }
      }
      rmSync(aside, { force: true });
    }
    return refuse(file, `has a lock (${lock}) that keeps changing`, 'try again in a moment');
  } finally {
    try {
      unlinkSync(draft);
    } catch {
      // Already gone.
    }
  }
}
