// docs/checking-the-mock-against-your-sandbox.md, followed as a reader would: its `sh` blocks run in order in
// bash, `$B` a standalone mock and `$SANDBOX_URL` a standalone mock behind the drift tests' proxy
// (test/mock/conformance/drifted-sandbox.ts) standing in for a sandbox that drifted. The report the page prints is the
// one its second block prints (the port and the run's prefix aside; UPDATE_DOCS=1 rewrites it), and the CI
// snippet's `run` step is that command and runs. `npx inr-payouts-mock` runs the package's bin from source here;
// the npx consumer (test/consumers/npx-bin) runs it from the packed tarball.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DriftedSandbox,
  GUIDE_DRIFT,
  PLANTS,
  startDriftedSandbox,
} from '../mock/conformance/drifted-sandbox.js';
import { type RunningServer, startServer } from '../mock/server/support.js';
import { root } from './tsdoc-examples.js';

const PAGE = 'docs/checking-the-mock-against-your-sandbox.md';
const REPORT = (name: string) =>
  new RegExp(`(<!-- report:${name} -->\\n\`\`\`text\\n)([\\s\\S]*?)(\`\`\`\\n<!-- /report -->)`);
const text = () => readFileSync(join(root, PAGE), 'utf8');
const blocks = (fence: string) =>
  [...text().matchAll(new RegExp(`\`\`\`${fence}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1] ?? '');

/** `npx inr-payouts-mock` as the package's bin, from source; any other npx as it is. */
const NPX = `npx() { if [ "$1" = inr-payouts-mock ]; then shift; "${root}node_modules/.bin/tsx" "${root}mock/bin/mock-server.ts" "$@"; else command npx "$@"; fi; }`;

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function bash(script: string, cwd: string, env: Record<string, string>): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-c', `set -euo pipefail\n${NPX}\n${script}`],
      { cwd, env: { ...process.env, ...env }, maxBuffer: 32 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The port and the run's prefix change every run; everything else must be the same. */
const stable = (report: string) =>
  report
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')
    .replace(/conf-[0-9a-f]{8}-/g, 'conf-PREFIX-')
    .trim();

/** The page's printed report `name`; with UPDATE_DOCS=1, first rewritten to `fresh`. */
function printed(name: string, fresh: string): string {
  const page = text();
  const match = REPORT(name).exec(page);
  if (!match) throw new Error(`${PAGE} has no report:${name} block`);
  if (!process.env.UPDATE_DOCS) return match[2] ?? '';
  writeFileSync(
    join(root, PAGE),
    page.replace(REPORT(name), (_, open: string, _old: string, close: string) => `${open}${fresh}\n${close}`),
  );
  return fresh;
}

describe(`${PAGE}, followed from top to bottom`, () => {
  let mock: RunningServer;
  let sandbox: DriftedSandbox;
  let dir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    // The page starts its first run against the strict profile: a target that keeps the spec exactly.
    [mock, sandbox] = await Promise.all([
      startServer(['--profile', 'strict']),
      startDriftedSandbox(GUIDE_DRIFT),
    ]);
    dir = mkdtempSync(join(tmpdir(), 'conformance-guide-'));
    env = { B: mock.url, SANDBOX_URL: sandbox.url, SANDBOX_KEY: sandbox.server.key };
  }, 30_000);
  afterAll(async () => {
    await Promise.all([mock?.stop(), sandbox?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('every sh block runs and does what the page says, and the printed report is the second one', async () => {
    const [againstMock, againstSandbox, , , differences, ...rest] = blocks('sh');
    expect(rest).toEqual([]);

    const clean = await bash(againstMock ?? '', dir, env);
    expect(clean.stderr).not.toMatch(/Error/);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toMatch(/scenarios: \d+ same, 0 differ, 0 skipped$/m);
    const cleanReport = clean.stdout.trim();
    expect(stable(printed('clean', cleanReport)), `${PAGE}'s clean report is not this run's`).toBe(
      stable(cleanReport),
    );
    expect(cleanReport).toContain("The mock's own, not promised by the spec");

    const drifted = await bash(againstSandbox ?? '', dir, env);
    expect(drifted.code).toBe(0);
    const said =
      'exit status 1 (1: the sandbox differs in a way that breaks code; 2: not everything could be compared)';
    expect(drifted.stdout.trim().split('\n').at(-1)).toBe(said);
    const report = drifted.stdout.replace(`${said}\n`, '').trim();
    // A new or renamed scenario changes the report: UPDATE_DOCS=1 npx vitest run test/docs/conformance-guide.test.ts
    expect(stable(printed('drift', report)), `${PAGE}'s printed report is not this run's`).toBe(
      stable(report),
    );
    expect(report).toContain('review: GET /v2/account: `region`: mock absent, sandbox string');
    expect(report).toContain('breaking: POST /v2/transactions: status: mock 422, sandbox 400');
    // The probes' boundary difference: the sandbox takes an 8-digit account number.
    expect(report).toContain(
      'differs POST /v2/users/:userId/kyc/bank/verify\n          breaking: accountNumber, 8 digits: mock 400 Validation Error, sandbox 404 Not Found',
    );
    expect(report).toContain("needs the mock's test helpers (/__mock), which this target has not");
    expect(existsSync(join(dir, 'conformance.html'))).toBe(true);

    const listed = await bash(differences ?? '', dir, env);
    const json = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as {
      results: { differences: { severity: string; text: string }[] }[];
    };
    const texts = json.results.flatMap((r) => r.differences.map((d) => `${d.severity}: ${d.text}`));
    expect(texts.length).toBeGreaterThan(0);
    expect(listed.stdout.trim().split('\n')).toEqual(texts);
  }, 120_000);

  it("the CI snippet's run step is the page's command without the echo, and passes against a clean mock", async () => {
    const steps = blocks('yaml').flatMap((b) =>
      [...b.matchAll(/^\s+- run: (npx inr-payouts-mock .*)$/gm)].map((m) => m[1] ?? ''),
    );
    expect(steps).toHaveLength(1);
    const step = steps[0] ?? '';
    const [, againstSandbox] = blocks('sh');
    const command = (againstSandbox ?? '').replace(/\\\n\s*/g, '').replace(/\s*\|\|.*$/s, '');
    expect(step).toBe(command);
    const ci = await bash(step, dir, { ...env, SANDBOX_URL: mock.url, SANDBOX_KEY: mock.key });
    expect(ci.stdout).toMatch(/scenarios: \d+ same, 0 differ, 0 skipped$/m);
    expect(ci.code).toBe(0);
  }, 120_000);
});

/**
 * Runs `script` in bash as the page's reader would; `onStderr` sees stderr as it comes (the guided block waits
 * for the deposit the test then makes).
 */
function bashStreaming(
  script: string,
  cwd: string,
  env: Record<string, string>,
  onStderr: (all: string) => void,
): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', `set -euo pipefail\n${NPX}\n${script}`], {
      cwd,
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      onStderr(stderr);
    });
    child.on('exit', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

describe(`${PAGE}: the --guided block, against a target without helpers`, () => {
  let server: RunningServer;
  let sandbox: DriftedSandbox;
  let dir: string;
  beforeAll(async () => {
    server = await startServer();
    sandbox = await startDriftedSandbox(PLANTS.withoutHelpers, server);
    dir = mkdtempSync(join(tmpdir(), 'conformance-guided-'));
  }, 30_000);
  afterAll(async () => {
    await sandbox?.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('carries a transaction through: the test sends the deposit the run prints, and nothing differs', async () => {
    const [, , guided, depositByHand] = blocks('sh');
    expect(guided).toContain('--guided');
    expect(depositByHand).toContain('/__mock/transactions/simulateDeposit');
    // The port the reader's tunnel forwards to; here the receiver URL is the receiver itself.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const receiverUrl = `http://127.0.0.1:${port}/webhooks`;
    // The dashboard's part: the webhook URL, and a verified user.
    await server.helper('accounts/update', { webhookUrl: receiverUrl });
    const { userId } = (await server.helper('users/seedVerified', { mobile: '9812345670' })).body.data as {
      userId: string;
    };
    let deposited: Promise<void> | undefined;
    const ran = await bashStreaming(
      guided ?? '',
      dir,
      {
        SANDBOX_URL: sandbox.url,
        SANDBOX_KEY: server.key,
        SANDBOX_WEBHOOK_SECRET: server.secret,
        VERIFIED_USER_ID: userId,
        RECEIVER_URL: receiverUrl,
        RECEIVER_PORT: String(port),
      },
      (stderr) => {
        const asked = /^guided: send .* \(transaction (\S+)\); waiting for it$/m.exec(stderr);
        if (!asked || deposited) return;
        // The page's deposit by hand for a standalone mock, as printed: the deposit, then the clock past the
        // confirmations; then the time the payout's bank answer takes.
        deposited = (async () => {
          const script = (depositByHand ?? '')
            .replaceAll('http://127.0.0.1:4010', server.origin)
            .replace('txn_…', asked[1] ?? '');
          const made = await bash(script, dir, {});
          expect(made.stdout).toContain('"success":true');
          await server.helper('clock/advance', '11s');
        })();
      },
    );
    await deposited;
    expect(ran.stderr).toMatch(/^guided: send 100 USDC on polygon \(testnet\) to \S+ before \S+Z /m);
    expect(ran.stderr).toContain('guided: the payout: seen');
    expect(ran.stderr).toContain('guided: the deliveries: seen');
    expect(ran.stderr).not.toContain(server.secret);
    expect(ran.stdout).toMatch(/scenarios: 1 same, 0 differ, 0 skipped$/m);
    expect(ran.stdout).toMatch(/transaction\.payout_completed\s+exercised/);
    // As the page says: both endpoints the transaction reaches are met with a success and a refusal.
    expect(ran.stdout).toMatch(/^ {2}POST \/v2\/transactions\s+exercised$/m);
    expect(ran.stdout).toMatch(/^ {2}GET \/v2\/transactions\/:transactionId\s+exercised$/m);
    expect(ran.stderr).toMatch(/^guided: the deposit: seen \(poll \d+\)$/m);
    expect(ran.code).toBe(0);
  }, 120_000);
});
