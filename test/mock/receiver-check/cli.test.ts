import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createNaiveWebhookServer } from '../../../examples/webhooks/naive.js';
import { runCli } from '../../../mock/server/cli.js';
import { NEXT, ours, receiversPerTest, SECRET } from './support.js';

// `check-receiver` on the command line, against the receivers kept in examples/webhooks/: the report printed
// and the exit status, for ours (createWebhookHandler) and the naive one, and the arguments it refuses.

const root = fileURLToPath(new URL('../../../', import.meta.url));

const listen = receiversPerTest();
afterEach(() => {
  vi.restoreAllMocks();
});

describe('inr-payouts-mock check-receiver', () => {
  it('prints the report and resolves (exit 0) for a passing receiver; --next-secret checks the rotation', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const url = await listen(ours());
    await runCli(['check-receiver', url, '--secret', SECRET, '--next-secret', NEXT, '--retry-delay', '0ms']);
    const printed = log.mock.calls.map((call) => String(call[0])).join('\n');
    expect(printed).toMatch(/^PASS rotation/m);
    expect(printed).toMatch(/13 passed, 0 failed/);
  });

  it('rejects (exit 1) naming the failed checks for the naive receiver; --json prints the report as JSON', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const url = await listen(createNaiveWebhookServer({ secret: SECRET, onEvent: () => {} }));
    await expect(
      runCli(['check-receiver', url, '--secret', SECRET, '--secret', NEXT, '--retry-delay', '0', '--json']),
    ).rejects.toThrow(/6 check\(s\) failed: raw-bytes, stale-timestamp, future-timestamp, rotation/);
    const report = JSON.parse(String(log.mock.calls[0]?.[0]));
    expect(report.ok).toBe(false);
  });

  it('explains a missing URL or secret with the usage', async () => {
    await expect(runCli(['check-receiver', '--secret', SECRET])).rejects.toThrow(
      /one receiver URL[\s\S]*Usage/,
    );
    await expect(runCli(['check-receiver', 'http://127.0.0.1:1/'])).rejects.toThrow(/--secret/);
  });
});

describe('the inr-payouts-mock process', () => {
  const bin = (args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(`${root}node_modules/.bin/tsx`, ['mock/bin/mock-server.ts', ...args], {
        cwd: root,
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += String(chunk)));
      child.stderr.on('data', (chunk) => (stderr += String(chunk)));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });

  it('exits 1 for the naive receiver and 0 for ours', async () => {
    const naive = await listen(createNaiveWebhookServer({ secret: SECRET, onEvent: () => {} }));
    const good = await listen(ours());
    const args = ['--secret', SECRET, '--next-secret', NEXT, '--retry-delay', '0'];
    const [failing, passing] = await Promise.all([
      bin(['check-receiver', naive, ...args]),
      bin(['check-receiver', good, ...args]),
    ]);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toMatch(/^FAIL duplicate-delivery/m);
    expect(failing.stderr).toMatch(/check\(s\) failed: raw-bytes/);
    expect(passing.code).toBe(0);
    expect(passing.stdout).toMatch(/13 passed, 0 failed/);
  }, 30_000);
});
