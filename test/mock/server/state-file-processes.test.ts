/**
 * What two processes, or another user, meet on one state file: servers started together never both run, and the
 * one that loses is told the file is in use by the other (never that it is damaged); a file or folder the user
 * may not write is a permission problem, never damage; a lock no live server holds is taken over by itself.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveOptions } from '../../../mock/engine/options.js';
import { initialState } from '../../../mock/operations/accounts.js';
import { openStateFile } from '../../../mock/server/persistence.js';
import type { MockState } from '../../../mock/state/mock-state.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const opener = join(root, 'test/mock/server/state-file-opener.ts');
const dir = mkdtempSync(join(tmpdir(), 'inr-payouts-processes-'));
chmodSync(dir, 0o755);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Opener {
  child: ChildProcess;
  /** Resolves with each line the process prints, in turn. */
  line(): Promise<string>;
  say(text: string): void;
}

/** A state to keep in a file (the simulation's own, without loading the whole simulation). */
const service = () => {
  const holder = {
    state: initialState(resolveOptions({ seed: 'processes' })),
    adopt: (state: MockState) => {
      holder.state = state;
    },
  };
  return holder;
};
/** A state file at `file`, a state kept in it. */
const keepIn = (file: string) => {
  const opened = openStateFile(file);
  opened.keep(service());
  return opened;
};

/** Starts an opener (as `nobody` with `asNobody`) and waits until it is ready. */
async function start(asNobody = false): Promise<Opener> {
  const command = [join(root, 'node_modules/.bin/tsx'), opener];
  const child = asNobody
    ? spawn('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', ...command], {
        cwd: root,
        env: { ...process.env, HOME: dir },
      })
    : spawn(command[0] ?? '', command.slice(1), { cwd: root });
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let rest = '';
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    rest += chunk.toString();
    for (let at = rest.indexOf('\n'); at >= 0; at = rest.indexOf('\n')) {
      const line = rest.slice(0, at);
      rest = rest.slice(at + 1);
      const next = waiting.shift();
      if (next) next(line);
      else lines.push(line);
    }
  });
  child.once('exit', (code) => {
    for (const next of waiting.splice(0)) next(`exited ${code}: ${errors}`);
  });
  const line = () =>
    new Promise<string>((resolve) => {
      const next = lines.shift();
      if (next !== undefined) resolve(next);
      else waiting.push(resolve);
    });
  expect(await line()).toBe('ready');
  return { child, line, say: (text) => child.stdin?.write(`${text}\n`) };
}

const stop = async ({ child }: Opener) => {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.stdin?.end();
  if (child.exitCode === null) await exited;
};

describe('servers started together on one state file', () => {
  it('never both run; the other is told it is in use by the first, by process ID (three rounds)', async () => {
    const both = await Promise.all([start(), start()]);
    try {
      // Round 1 creates the file, rounds 2 and 3 open it as it is.
      const file = join(dir, 'race', 'state.db');
      for (let round = 0; round < 3; round++) {
        for (const one of both) one.say(`open ${file}`);
        const said = await Promise.all(both.map(({ line }) => line()));
        const opened = said.filter((line) => line === 'open');
        expect(opened, said.join('\n')).toHaveLength(1);
        const refused = said.find((line) => line.startsWith('refused')) ?? '';
        expect(refused).toMatch(
          /is in use by another inr-payouts mock server \(process \d+\): stop that server/,
        );
        expect(refused).not.toMatch(/damaged|cannot be read|is empty|delete it|restore|database is locked/);
        const winner = both[said.indexOf('open')];
        expect(refused).toContain(`(process ${JSON.parse(readFileSync(`${file}.pid`, 'utf8')).pid})`);
        winner?.say('close');
        expect(await winner?.line()).toBe('closed');
      }
    } finally {
      for (const one of both) await stop(one);
    }
  }, 60_000);
});

const root0 = process.getuid?.() === 0;
describe('a file or folder the user may not write', () => {
  // nobody runs this checkout: a folder above it that others may not enter (a clone in a 0700 temporary folder)
  // is opened to them for search only, and closed again after.
  const opened: [string, number][] = [];
  beforeAll(() => {
    if (!root0) return;
    for (let at = root; at !== dirname(at); at = dirname(at)) {
      const mode = statSync(at).mode & 0o7777;
      if ((mode & 0o001) === 0) {
        chmodSync(at, mode | 0o001);
        opened.push([at, mode]);
      }
    }
  });
  afterAll(() => {
    for (const [at, mode] of opened.splice(0)) chmodSync(at, mode);
  });
  it.skipIf(!root0)(
    'is a permission problem, named as one, the file untouched (as user nobody; root may write anything)',
    async () => {
      // A good file, made by root.
      const good = join(dir, 'good', 'state.db');
      mkdirSync(join(dir, 'good'));
      keepIn(good).close();
      const bytes = readFileSync(good);
      // 1. Its folder is root's: nobody may not create the lock or -wal beside it.
      // 2. The folder is nobody's, the file root's and read-only to others.
      const shared = join(dir, 'shared');
      mkdirSync(shared);
      chownSync(shared, 65534, 65534);
      writeFileSync(join(shared, 'state.db'), bytes);
      chmodSync(join(shared, 'state.db'), 0o644);
      const nobody = await start(true);
      try {
        for (const [file, what] of [
          [good, /creating a file in \S+ is not permitted \(EACCES\) for user 65534/],
          [
            join(shared, 'state.db'),
            /reading and writing \S+state\.db is not permitted \(EACCES\) for user 65534/,
          ],
        ] as const) {
          nobody.say(`open ${file}`);
          const said = await nobody.line();
          expect(said).toMatch(what);
          expect(said).toMatch(/give that user read and write permission/);
          expect(said).not.toMatch(/damaged|cannot be read|restore|delete it/);
          expect(readFileSync(file).equals(bytes)).toBe(true);
          expect(existsSync(`${file}.pid`)).toBe(false);
        }
      } finally {
        await stop(nobody);
      }
    },
    60_000,
  );
});

describe('a lock no live server holds', () => {
  const stat = (pid: number) => readFileSync(`/proc/${pid}/stat`, 'utf8');
  const startOf = (pid: number) =>
    stat(pid)
      .slice(stat(pid).lastIndexOf(')') + 2)
      .split(' ')[19];
  it('naming PID 0, -1, garbage, or a live process that started at another time: taken over', () => {
    const name = hostname();
    for (const [label, lock] of [
      ['PID 0', { pid: 0, host: name, token: 'x' }],
      ['PID -1', { pid: -1, host: name, token: 'x' }],
      ['garbage', 'not a lock'],
      ['a reused PID', { pid: process.ppid, start: '1', host: name, token: 'x' }],
    ] as const) {
      const file = join(dir, `stale-${label.replaceAll(' ', '-')}.db`);
      writeFileSync(`${file}.pid`, typeof lock === 'string' ? lock : JSON.stringify(lock));
      const opened = openStateFile(file);
      expect(opened.state, label).toBeUndefined();
      // The lock is this process's now, kept for the file's creation.
      expect(JSON.parse(readFileSync(`${file}.pid`, 'utf8')).pid).toBe(process.pid);
      opened.keep(service());
      opened.close();
      expect(existsSync(`${file}.pid`)).toBe(false);
    }
  });

  it("naming a live process with its own start time is in use: that process's ID is named", () => {
    const file = join(dir, 'held.db');
    const pid = process.ppid;
    writeFileSync(`${file}.pid`, JSON.stringify({ pid, start: startOf(pid), host: hostname(), token: 'y' }));
    expect(() => openStateFile(file)).toThrow(
      `is in use by another inr-payouts mock server (process ${pid})`,
    );
    expect(readFileSync(`${file}.pid`, 'utf8')).toContain('"token":"y"');
  });

  it('of another host: in use while renewed, taken over a minute after its last renewal', () => {
    const file = join(dir, 'other-host.db');
    const lock = `${file}.pid`;
    writeFileSync(lock, JSON.stringify({ pid: 4242, host: 'another-host', token: 'z' }));
    expect(() => openStateFile(file)).toThrow(
      'is in use by another inr-payouts mock server (process 4242 on another-host)',
    );
    // A new container on a killed one's volume is told when it may start.
    expect(() => openStateFile(file)).toThrow(
      /its lock lapses 60 s after its last renewal, in \d+ s: start again then/,
    );
    const minuteAgo = new Date(Date.now() - 61_000);
    utimesSync(lock, minuteAgo, minuteAgo);
    const opened = openStateFile(file);
    expect(opened.state).toBeUndefined();
    opened.keep(service());
    opened.close();
    expect(existsSync(lock)).toBe(false);
  });
});
