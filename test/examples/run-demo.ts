/**
 * Runs `examples/demo.ts` as `npm run demo` does (tsx, standard input closed), with `env` over the test's
 * environment and no API key unless `env` gives one.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The demo's exit code and output. */
export function runDemo(
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(`${root}node_modules/.bin/tsx`, ['examples/demo.ts'], {
    cwd: root,
    env: { ...process.env, INR_PAYOUTS_API_KEY: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}
