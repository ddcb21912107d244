/**
 * Runs an example as a partner runs it (tsx, standard input closed), with `env` over the test's environment and no
 * API key unless `env` gives one; `runDemo` is `npm run demo`.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The example's exit code and output. */
export function runExample(
  file: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(`${root}node_modules/.bin/tsx`, [file], {
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

export const runDemo = (env: Record<string, string>) => runExample('examples/demo.ts', env);
