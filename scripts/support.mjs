// What the scripts here share: commands spawned with their output collected, free ports, the built standalone mock
// server started and stopped, npm packages installed into a git-ignored folder of their own, the package packed,
// and the rounds and medians of the benchmarks.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root. */
export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Spawns a command (in the repository's root unless `cwd` says otherwise) with its output collected in `seen`
 * (`stdout`, `stderr` and both as they came, `output`); `stderr: 'inherit'` passes its stderr through instead.
 * `ready(test, what)` resolves with test's answer once the output passes it, and rejects if the command exits first.
 */
export function launch(command, args, { stderr = 'pipe', ...options } = {}) {
  const child = spawn(command, args, { cwd: root, ...options, stdio: ['ignore', 'pipe', stderr] });
  const seen = { stdout: '', stderr: '', output: '' };
  for (const stream of ['stdout', 'stderr'])
    child[stream]?.on('data', (chunk) => {
      seen[stream] += chunk;
      seen.output += chunk;
    });
  const stop = async (signal = 'SIGTERM') => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill(signal);
    await exited;
  };
  const ready = (test, what) =>
    new Promise((done, fail) => {
      const look = () => {
        const found = test(seen.output);
        if (found) done(found);
      };
      child.stdout.on('data', look);
      child.stderr?.on('data', look);
      child.once('exit', (code) =>
        fail(new Error(`${what} exited (${code}) before it was ready:\n${seen.output}`)),
      );
    });
  return { child, seen, stop, ready };
}

/**
 * Runs a command to its end (killed after `timeoutMs`, when given); resolves with its exit code (-1 when it could
 * not start) and its output, never rejects.
 */
export async function run(command, args, { timeoutMs, ...options } = {}) {
  const { child, seen } = launch(command, args, options);
  const timer = timeoutMs && setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const [code, error] = await once(child, 'close').then(
    ([status]) => [status, ''],
    (e) => [-1, String(e)],
  );
  clearTimeout(timer);
  return { code, stdout: seen.stdout, stderr: `${seen.stderr}${error}`, output: `${seen.output}${error}` };
}

/** A port free on 127.0.0.1 just now. */
export async function freePort() {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address();
  await new Promise((closed) => probe.close(closed));
  return port;
}

/**
 * Starts the built standalone server (dist/bin/mock-server.js) on a free port with a manual clock, its stderr
 * passed through; resolves once it has printed its URL, sandbox key and webhook secret, and `ready` holds of what
 * it printed.
 */
export async function startMock(args = [], ready = () => true) {
  const bin = join(root, 'dist/bin/mock-server.js');
  const mock = launch(process.execPath, [bin, '--port', '0', '--speed', 'manual', ...args], {
    stderr: 'inherit',
  });
  const banner = /listening on (\S+)\n\s+sandbox API key: (\S+)\n\s+webhook secret:\s+(\S+)\n/;
  const [, url, key, secret] = await mock.ready((out) => ready(out) && banner.exec(out), 'the mock server');
  return { ...mock, url, key, secret };
}

/**
 * Installs npm packages into `prefix` (a git-ignored folder, given a package.json of its own first); throws with
 * npm's errors when that fails. `what` names them in the messages.
 */
export function installInto(prefix, packages, what = packages.join(', ')) {
  mkdirSync(prefix, { recursive: true });
  const manifest = join(prefix, 'package.json');
  if (!existsSync(manifest)) writeFileSync(manifest, '{ "name": "inr-payouts-tools", "private": true }\n');
  console.log(`installing ${what} into ${relative(root, prefix)}/ ...`);
  const args = ['install', '--prefix', prefix, '--no-audit', '--no-fund', ...packages];
  const installed = spawnSync('npm', args, { encoding: 'utf8', timeout: 600_000 });
  if (installed.status !== 0) throw new Error(`installing ${what} failed:\n${installed.stderr}`);
}

/**
 * Runs a command to its end, blocking (in the repository's root); answers spawnSync's result. Throws when the command
 * cannot start, or exits other than 0 unless `allowFail`.
 */
export function sh(command, args, { allowFail = false, env } = {}) {
  const options = {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, ...env },
  };
  const done = spawnSync(command, args, options);
  if (done.error) throw new Error(`${command} could not run: ${done.error.message}`);
  if (done.status !== 0 && !allowFail)
    throw new Error(`${command} ${args.join(' ')} exited ${done.status}:\n${done.stderr}${done.stdout}`);
  return done;
}

/**
 * Packs the package into `dir` as npm publish would (`npm pack`, whose `prepack` builds dist/); the tarball's path.
 */
export function pack(dir) {
  const packed = sh('npm', ['pack', '--silent', '--pack-destination', dir]);
  return join(dir, packed.stdout.trim().split('\n').at(-1));
}

/** Rounds of every item once, each round starting one further, so load on a shared machine falls on all alike. */
export function* rotating(items, rounds) {
  for (let round = 0; round < rounds; round++)
    for (let i = 0; i < items.length; i++) yield items[(round + i) % items.length];
}

/** The q-quantile of some figures, interpolated between the two nearest. */
export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  return sorted[low] + (sorted[Math.min(low + 1, sorted.length - 1)] - sorted[low]) * (at - low);
}
export const median = (values) => quantile(values, 0.5);
