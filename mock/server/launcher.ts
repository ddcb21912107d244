/**
 * The processes whose end ends the standalone server: the npm process that ran it (`npx inr-payouts-mock`,
 * `npm exec`, an npm script) and the shell npm put in between. npm runs a bin under `sh -c`; when npx ends
 * without passing anything on (SIGKILL, SIGHUP) or that shell ends (SIGTERM, which npm passes to the shell
 * alone), the server would otherwise live on, an orphan holding its port. A server run directly
 * (`nohup inr-payouts-mock &`, a harness spawning the bin, a service manager) watches nothing: it outlives the
 * shell that started it, and signals reach it itself.
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

/** The shells npm runs a command in (`sh` by default, or its `script-shell`). */
const SHELL = /^(\S*\/)?(sh|dash|bash|zsh|ksh|mksh|ash)(\s|$)/;

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
 * The processes to watch: when npm ran this one, either directly or through the shell it runs commands in
 * (`npm_command` in the environment, and the parent npm or a shell whose parent is npm), that shell and npm;
 * otherwise none. A process that merely inherited npm's environment (a test run by `npm test` that starts the
 * server itself) is not one npm ran, and a parent of PID 1 or less (a container's init) is never watched.
 * @example
 * const pids = launcherPids(); // [shellPid, npxPid] under npx, [] when run directly
 */
export function launcherPids(
  env: NodeJS.ProcessEnv = process.env,
  parent: number = process.ppid,
  read: (pid: number) => ProcessInfo | undefined = describe,
): number[] {
  if (!env.npm_command || process.platform === 'win32' || parent <= 1) return [];
  const shell = read(parent);
  if (!shell) return [];
  if (NPM.test(shell.command)) return [parent];
  if (!SHELL.test(shell.command) || shell.ppid <= 1) return [];
  const npm = read(shell.ppid);
  return npm && NPM.test(npm.command) ? [parent, shell.ppid] : [];
}

/**
 * Calls `onGone` once, when any of `pids` has ended. Node has no process-exit notification (no pidfd or kqueue
 * proc filter, no parent-death signal), so this asks the kernel every half second whether each still exists
 * (`kill(pid, 0)` sends nothing); the timer never keeps the process running.
 * @example
 * const timer = watchProcesses(launcherPids(), () => server.close());
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
