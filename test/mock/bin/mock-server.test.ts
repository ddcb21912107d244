/**
 * The standalone server needs no msw: the bin, bundled with everything it imports, contains no msw module,
 * and runs (`--help`, then a request) from a folder where msw cannot be resolved at all.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
// Outside the repository: no node_modules above it, so only what the bundle carries can load.
const dir = mkdtempSync(join(tmpdir(), 'inr-payouts-no-msw-'));
const bin = join(dir, 'mock-server.mjs');
let child: ChildProcess | undefined;

afterAll(() => {
  child?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('the standalone server without msw', () => {
  it('bundles with no msw module in its import graph', async () => {
    const result = await build({
      entryPoints: [join(root, 'mock/bin/mock-server.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      outfile: bin,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((path) => path.includes('node_modules/rou3/'))).toBe(true);
    expect(inputs.filter((path) => /node_modules\/(msw|@mswjs)\//.test(path))).toEqual([]);
    expect(spawnSync(process.execPath, ['-e', "import('msw')"], { cwd: dir }).status).not.toBe(0);
  });

  it('prints its usage and answers a request where msw cannot be resolved', async () => {
    const help = spawnSync(process.execPath, [bin, '--help'], { cwd: dir, encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: inr-payouts-mock/);

    const started = spawn(process.execPath, [bin, '--port', '0', '--speed', 'manual'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    let out = '';
    started.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    started.stderr?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const [, url, key] = await new Promise<RegExpExecArray>((resolve, reject) => {
      const timer = setInterval(() => {
        const match = /listening on (http:\S+)\n\s+sandbox API key: (\S+)/.exec(out);
        if (match) {
          clearInterval(timer);
          resolve(match);
        }
      }, 20);
      started.once('exit', (code) => {
        clearInterval(timer);
        reject(new Error(`the server exited with ${code}: ${out}`));
      });
    });
    const response = await fetch(`${url}/v2/account`, { headers: { Authorization: `Bearer ${key}` } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ success: true, data: { environment: 'sandbox' } });
    started.kill('SIGTERM');
  });
});
