/**
 * Starts the real `inr-payouts-mock` process from source (tsx) on a free port and talks to it with plain
 * `fetch`, as a partner in another language would.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import {
  type MockServerOptions,
  type RunningMockServer,
  startMockServer,
} from '../../../mock/server/server.js';
import { freePort } from '../../setup/services.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

export interface RunningServer {
  /** Where the API is reached: the server itself, or Prism in front of it in CI's Prism run (`throughPrism`). */
  url: string;
  /** The server itself, for what a proxy would answer for it: dropped connections, raw request targets, HEAD. */
  origin: string;
  key: string;
  secret: string;
  child: ChildProcess;
  output: () => string;
  /** Sends `signal` and resolves with the exit code. */
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
  /** A JSON call with the sandbox key. */
  call: Call;
  /** `call`, sent to `origin`. */
  callOrigin: Call;
  /** A `/__mock` helper call. */
  helper: (path: string, body?: unknown) => Promise<Answer>;
}

type Call = (
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<Answer>;

export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

async function parsed(response: Response): Promise<Answer> {
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : {} };
}

/**
 * Waits for a spawned server's start lines: its URL, sandbox key and webhook secret, its output so far, and its
 * exit. Rejects when it exits first or has not started in `timeoutMs`.
 */
export async function awaitStart(
  child: ChildProcess,
  timeoutMs = 15_000,
): Promise<{
  url: string;
  key: string;
  secret: string;
  output: () => string;
  exited: Promise<number | null>;
}> {
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const started = await new Promise<RegExpExecArray>((resolve, reject) => {
    const check = () => {
      const match = /listening on (http:\S+)\n\s+sandbox API key: (\S+)\n\s+webhook secret:\s+(\S+)/.exec(
        out,
      );
      // The helpers line is printed last: everything above it is there by then.
      if (match && /test helpers:.*\n/.test(out)) resolve(match);
    };
    child.stdout?.on('data', check);
    exited.then((code) => reject(new Error(`the server exited (${code}) before starting:\n${out}`)));
    setTimeout(
      () => reject(new Error(`the server did not start in ${timeoutMs / 1000} s:\n${out}`)),
      timeoutMs,
    );
  });
  const [, url = '', key = '', secret = ''] = started;
  return { url, key, secret, output: () => out, exited };
}

// Every server and Prism a test file started is ended after its tests: one whose start outlived the hook's time
// limit was never handed to the test that would have stopped it.
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
});
function tracked<C extends ChildProcess>(child: C): C {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Starts the server with `args` (plus `--port 0`, and `--speed manual` unless a speed is given). */
export async function startServer(args: string[] = []): Promise<RunningServer> {
  const extra = args.includes('--speed') ? [] : ['--speed', 'manual'];
  const child = tracked(
    // tsx as a loader, so the process is the server itself: tsx's own launcher relays SIGTERM to a child of its
    // own, and on a loaded machine it sometimes ended with the signal (exit 143) instead of the server's exit 0.
    spawn(
      process.execPath,
      ['--import', 'tsx', 'mock/bin/mock-server.ts', '--port', '0', ...extra, ...args],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    ),
  );
  const started = await awaitStart(child);
  const { key, secret, output, exited } = started;
  const prism = process.env.INR_PRISM_BIN ? await throughPrism(started.url) : undefined;
  const url = prism?.url ?? started.url;
  const callAt =
    (base: string): Call =>
    async (method, path, body, headers = {}) =>
      parsed(
        await fetch(`${base}${path}`, {
          method,
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      );
  const call = callAt(url);
  const helper = async (path: string, body?: unknown) =>
    parsed(
      // Straight to the server: the helpers are not in openapi.json, and Prism rewrites a bare JSON string body.
      await fetch(`${started.url}/__mock/${path}`, {
        method: 'POST',
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
  return {
    url,
    origin: started.url,
    key,
    secret,
    child,
    output,
    stop: async (signal = 'SIGTERM') => {
      await prism?.stop();
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
    call,
    callOrigin: callAt(started.url),
    helper,
  };
}

/**
 * Stands for a server that a test file or `describe` block starts in its `beforeAll`: each of `keys` is read from
 * the started server when a test or a hook uses it. Leaving a key out of a type's list fails the type check.
 */
function standIn<T extends object, K extends keyof T>(
  read: () => T | undefined,
  keys: readonly K[],
): Pick<T, K> {
  const running = (): T => {
    const started = read();
    if (started === undefined)
      throw new Error(
        'the server has not started: it starts before the tests, so use it in a test or a hook',
      );
    return started;
  };
  const standing: Partial<Pick<T, K>> = {};
  for (const key of keys)
    Object.defineProperty(standing, key, { enumerable: true, get: () => running()[key] });
  // Every key of `keys` is defined just above.
  return standing as Pick<T, K>;
}

/**
 * Standalone servers for the tests of the file or `describe` block this is called in, one per argument list
 * (see {@link startServer}): started together before its tests, stopped after them. Each stands for its server
 * once started.
 * @example
 * const [standard, strict] = standaloneServers([], ['--profile', 'strict']);
 */
export function standaloneServers<const A extends readonly (readonly string[])[]>(
  ...argvs: A
): { [K in keyof A]: RunningServer } {
  const started: RunningServer[] = [];
  beforeAll(async () => {
    started.push(...(await Promise.all(argvs.map((argv) => startServer([...argv])))));
  }, 60_000);
  afterAll(async () => {
    await Promise.all(started.splice(0).map((server) => server.stop()));
  });
  const keys = [
    'url',
    'origin',
    'key',
    'secret',
    'child',
    'output',
    'stop',
    'call',
    'callOrigin',
    'helper',
  ] as const;
  // A tuple of the same length as `argvs`: map cannot say so to the checker.
  return argvs.map((_, i): RunningServer => standIn(() => started[i], keys)) as {
    [K in keyof A]: RunningServer;
  };
}

/** One standalone server with `args` for the tests of the file or `describe` block: {@link standaloneServers}. */
export function standaloneServer(args: readonly string[] = []): RunningServer {
  return standaloneServers(args)[0];
}

/**
 * The in-process server with `options` for the tests of the file or `describe` block this is called in: started
 * before its tests, closed after them; it stands for the server once started.
 */
export function mockServerForTests(options: MockServerOptions): RunningMockServer {
  let started: RunningMockServer | undefined;
  beforeAll(async () => {
    started = await startMockServer(options);
  });
  afterAll(() => started?.close());
  return standIn(() => started, ['url', 'service', 'server', 'close']);
}

/** POSTs `text` as a JSON body to the in-process `server` with its sandbox key (and `idempotencyKey`). */
export async function postText(
  server: RunningMockServer,
  path: string,
  text: string,
  idempotencyKey?: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${server.service.sandboxKey}`,
      'Content-Type': 'application/json',
      ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
    },
    body: text,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A port free on 127.0.0.1 now, for a listener a run starts itself (a receiver). */
export { freePort };

/**
 * CI's Prism run (scripts/contract/prism-suite.mjs) sets `INR_PRISM_BIN`: each server is then reached through
 * Prism's validating proxy for openapi.json, and Prism's log is appended to `INR_PRISM_LOG` for the run's verdict.
 * Prism runs without `--errors` here, so the suite's deliberately invalid requests still reach the mock.
 */
async function throughPrism(upstream: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const prism = tracked(
    spawn(
      process.env.INR_PRISM_BIN ?? 'prism',
      ['proxy', join(root, 'openapi.json'), upstream, '-h', '127.0.0.1', '-p', String(port)],
      {
        cwd: root,
        env: { ...process.env, PATH: process.env.INR_PRISM_PATH ?? process.env.PATH },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    ),
  );
  let log = '';
  const exited = new Promise<void>((resolve) => prism.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('Prism is listening')) resolve();
    };
    prism.stdout.on('data', read);
    prism.stderr.on('data', read);
    exited.then(() => reject(new Error(`Prism exited before listening:\n${log}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      prism.kill('SIGTERM');
      await exited;
      if (process.env.INR_PRISM_LOG) appendFileSync(process.env.INR_PRISM_LOG, log);
    },
  };
}

/** Creates a user over HTTP and returns its ID. */
export async function createUser(server: RunningServer, mobile = '9876543210'): Promise<string> {
  const answer = await server.call('POST', '/v2/users', {
    mobile,
    email: 'asha@example.com',
    name: 'Asha Rao',
  });
  if (answer.status !== 201) throw new Error(`user create failed: ${JSON.stringify(answer.body)}`);
  return (answer.body.data as { userId: string }).userId;
}

/**
 * A service's state as JSON without the rate-limit windows (every authenticated request counts, refused or
 * not), to compare the state before and after a request.
 */
export function stateWithoutRateWindows(state: { http: { rateWindows: unknown } }): string {
  const { http, ...rest } = state;
  const { rateWindows: _counted, ...kept } = http;
  return JSON.stringify({ ...rest, http: kept });
}

/** A raw request to the server at `baseUrl` over node:http, so `Host` and the other headers fetch sets can be anything. */
export function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body = '',
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
