/**
 * The processes whose end ends the standalone server. npm (`npx inr-payouts-mock`, `npm exec`, an npm script)
 * runs a bin under `sh -c`: when npx ends without passing anything on (SIGKILL, SIGHUP), or its SIGTERM ends only
 * that shell, the server would live on, an orphan holding its port; so it watches that shell and npm. Started by
 * another program (a harness spawning the bin, a wrapper such as tsx), it watches that program, so a harness killed
 * outright leaves nothing behind. Started from any other shell (`nohup inr-payouts-mock &` in a terminal) or by
 * init or a service manager, it watches nothing: it outlives the shell that started it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** A process: its ID, its parent's, and its command line. */
interface ProcessInfo {
  pid: number;
  ppid: number;
  command: string;
}

/** npm shows itself as `npm exec …`, `npm run …` or by its script, `…/npm-cli.js` or `…/npx-cli.js`. */
const NPM = /(^|[\s/])(npm|npx)(\s|-cli\.js|$)/;

/** Shells, as their command lines start (a login shell's with `-`): npm's `sh -c`, a terminal's. */
const SHELL = /^-?(\S*\/)?(sh|dash|bash|zsh|ksh|mksh|ash|fish|csh|tcsh)(\s|$)/;

/** The process `pid`, from /proc on Linux and `ps` elsewhere; undefined once it is gone or unreadable. */
function describe(pid: number): ProcessInfo | undefined {
  try {
    if (process.platform === 'linux') {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // The command name is in parentheses and may hold spaces or parentheses: the fields follow the last one.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      return { pid, ppid, command };
    }
    const line = execFileSync('ps', ['-o', 'ppid=,command=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    const match = /^(\d+)\s+(.*)$/.exec(line);
    return match ? { pid, ppid: Number(match[1]), command: match[2] ?? '' } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The processes to watch: npm and the shell it ran this one in, when a shell whose parent is npm started it; no
 * process, when any other shell, init or a service manager did; otherwise the program that started it (npm
 * itself, a harness, a wrapper), as also when its parent cannot be read.
 */
export function launcherPids(
  parent: number = process.ppid,
  read: (pid: number) => ProcessInfo | undefined = describe,
): number[] {
  if (parent <= 1) return [];
  const launcher = read(parent);
  if (!launcher || !SHELL.test(launcher.command)) return [parent];
  const npm = launcher.ppid > 1 ? read(launcher.ppid) : undefined;
  return npm && NPM.test(npm.command) ? [parent, launcher.ppid] : [];
}

/**
 * Calls `onGone` once, when any of `pids` has ended. Node has no process-exit notification (no pidfd or kqueue
 * proc filter, no parent-death signal), so this asks the kernel every half second whether each still exists
 * (`kill(pid, 0)` sends nothing); the timer never keeps the process running.
 */
export function watchProcesses(
  pids: number[],
  onGone: (pid: number) => void,
  intervalMs = 500,
): NodeJS.Timeout | undefined {
  if (pids.length === 0) return undefined;
  const timer = setInterval(() => {
    for (const pid of pids) {
      try {
        process.kill(pid, 0);
      } catch (error) {
        // EPERM: it exists but belongs to another user, so it is still there.
        if ((error as NodeJS.ErrnoException).code !== 'ESRCH') continue;
        clearInterval(timer);
        onGone(pid);
        return;
      }
    }
  }, intervalMs);
  timer.unref();
  return timer;
}
