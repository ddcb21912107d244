/**
 * The standalone server as its own node process (source through tsx's loader, so its pid is the server's own
 * and its heap is the one `--max-old-space-size` sets), its resident memory read from /proc, and a bounded
 * request loop over 127.0.0.1.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { awaitStart } from '../mock/server/support.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface ServerProcess {
  url: string;
  key: string;
  child: ChildProcess;
  output: () => string;
  /** Resident memory in MB, from /proc/<pid>/status. */
  rssMb: () => number;
  stop: () => Promise<number | null>;
}

/** Starts `node [nodeArgs] --import tsx mock/bin/mock-server.ts --port 0 [args]` and waits for its lines. */
export async function startServerProcess(nodeArgs: string[], args: string[] = []): Promise<ServerProcess> {
  const child = spawn(
    process.execPath,
    [
      ...nodeArgs,
      '--import',
      'tsx',
      'mock/bin/mock-server.ts',
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      ...args,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const { url, key, output, exited } = await awaitStart(child, 30_000);
  return {
    url,
    key,
    child,
    output,
    rssMb: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]);
      return kb / 1024;
    },
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** One request over a kept-alive connection: its status (its body is read and dropped). */
export function send(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Buffer | string,
) {
  const { port } = new URL(url);
  return new Promise<number>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

/** Runs `work(i)` for i = 0, 1, … with `concurrency` in flight, until `count` have run or `until()` is true. */
export async function loop(
  concurrency: number,
  count: number,
  work: (i: number) => Promise<void>,
  until: () => boolean = () => false,
): Promise<number> {
  let next = 0;
  const worker = async () => {
    while (next < count && !until()) {
      const i = next;
      next += 1;
      await work(i);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return next;
}
