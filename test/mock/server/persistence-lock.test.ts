/**
 * What two processes, or another user, meet on one state file: servers started together never both run, and the
 * one that loses is told the file is in use by the other, by process ID (never that it is damaged); a file or
 * folder the user may not write is a permission problem, never damage; a holder killed with kill -9 lets the file
 * go at once, every write it saved there.
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
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
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
  /** The ID of the process that opens the files (tsx runs it in a process of its own). */
  pid: number;
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
  const ready = await line();
  expect(ready).toMatch(/^ready \d+$/);
  return {
    child,
    pid: Number(ready.slice('ready '.length)),
    line,
    say: (text) => child.stdin?.write(`${text}\n`),
  };
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
        const opened = said.filter((line) => line.startsWith('open'));
        expect(opened, said.join('\n')).toHaveLength(1);
        const refused = said.find((line) => line.startsWith('refused')) ?? '';
        expect(refused).toMatch(
          /is in use by another inr-payouts mock server \(process \d+\): stop that server/,
        );
        expect(refused).not.toMatch(/damaged|cannot be read|is empty|delete it|restore|database is locked/);
        const winner = both[said.findIndex((line) => line.startsWith('open'))];
        expect(refused).toContain(`(process ${winner?.pid})`);
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
          expect(existsSync(`${file}-wal`)).toBe(false);
        }
      } finally {
        await stop(nobody);
      }
    },
    60_000,
  );
});

describe('a holder that ends without closing', () => {
  it('killed with kill -9, lets the file go at once: the next server opens it, with the state it saved', async () => {
    const file = join(dir, 'killed', 'state.db');
    const holder = await start();
    holder.say(`open ${file}`);
    const said = await holder.line();
    expect(said).toMatch(/^open \d+$/);
    // While it lives, another is refused at once, by its process ID.
    expect(() => openStateFile(file)).toThrow(
      `is in use by another inr-payouts mock server (process ${holder.pid})`,
    );
    const exited = new Promise((resolve) => holder.child.once('exit', resolve));
    process.kill(holder.pid, 'SIGKILL');
    await exited;
    // No wait, no lock to clear: the kernel let the lock go with the process.
    const opened = openStateFile(file);
    expect(opened.state?.clock.now).toBe(Number(said.slice('open '.length)));
    opened.keep(service());
    opened.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
  }, 60_000);
});
