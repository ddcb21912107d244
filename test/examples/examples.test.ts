// Every program in examples/ runs against the embedded mock and does what its comments say.
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main as demo } from '../../examples/demo.js';
import { main as documentUpload } from '../../examples/document-upload.js';
import { main as errors } from '../../examples/errors-and-rate-limits.js';
import { main as hooks } from '../../examples/hooks.js';
import { main as kycOnboarding } from '../../examples/kyc-onboarding.js';
import { main as prefunded } from '../../examples/prefunded-transaction.js';
import { main as quickStart } from '../../examples/quick-start.js';
import { main as recover } from '../../examples/recover-timed-out-create.js';
import { main as standard } from '../../examples/standard-transaction.js';
import { main as expressReceiver } from '../../examples/webhooks/express.js';
import { main as fetchReceiver } from '../../examples/webhooks/fetch-handler.js';
import { main as naiveReceiver } from '../../examples/webhooks/naive.js';
import { main as nodeReceiver } from '../../examples/webhooks/node-http.js';

beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('examples/', () => {
  it('every example program is covered by this file', () => {
    const covered = [
      'demo.ts',
      'document-upload.ts',
      'errors-and-rate-limits.ts',
      'hooks.ts',
      'kyc-onboarding.ts',
      'prefunded-transaction.ts',
      'quick-start.ts',
      'recover-timed-out-create.ts',
      'standard-transaction.ts',
      'testing-with-the-mock.test.ts',
    ];
    const files = readdirSync(new URL('../../examples/', import.meta.url)).filter((f) => f.endsWith('.ts'));
    expect(files.sort()).toEqual(covered.sort());
  });

  it('quick start (2.1, 2.3, 2.7): reads the account, creates a user, reads KYC pending', async () => {
    const { account, user, kyc } = await quickStart();
    expect(account.environment).toBe('sandbox');
    expect(user.mobile).toBe('+919876543210');
    expect(kyc.status).toBe('pending');
  });

  it('KYC onboarding (3.3, 4.3-4.11): every step, then refresh settles verified at level basic', async () => {
    const { refreshed, extended } = await kycOnboarding();
    expect(refreshed.current).toEqual({ level: 'basic', status: 'verified' });
    expect(extended.profile?.submitted).toBe(true);
    expect(extended.declaration?.submitted).toBe(true);
  });

  it('standard transaction (2.4): completes with a UTR and FIFO attribution over two tranches', async () => {
    const paid = await standard();
    expect(paid.transaction.status).toBe('completed');
    expect(paid.payout.utr).toBeTruthy();
    expect(paid.payout.allocations.map((a) => a.dealNumber)).toEqual(['D-0001', 'D-0002']);
  });

  it('prefunded (2.5, 3.1): outstanding rises on creation and the credit is restored on funding', async () => {
    const { awaiting, done, before, during, after } = await prefunded();
    expect(awaiting.transaction.status).toBe('awaiting_funds');
    expect(done.transaction.status).toBe('completed');
    expect(during.outstandingUsd).toBe('400');
    expect(after.availableUsd).toBe(before.availableUsd);
  });

  it('document upload (4.10): the document is recorded and shows in the extended status', async () => {
    const { record, extended } = await documentUpload();
    expect(record.fileName).toBe('licence.pdf');
    expect(extended.document?.submitted).toBe(true);
  });

  it('recovery (4.2): a create whose answer was lost is found by partnerReference, exactly once', async () => {
    const { result, count } = await recover();
    expect(result.recovered).toBe(true);
    expect(count).toBe(1);
  });

  it("hooks: ky's hooks add a trace header to every request and log one line per answer, the key masked", async () => {
    const { account, user, traces } = await hooks();
    expect(account.environment).toBe('sandbox');
    expect(user.userId).toBeTruthy();
    expect(traces).toHaveLength(2);
    for (const trace of traces) expect(trace).toMatch(/^[0-9a-f-]{36}$/);
    const lines = vi.mocked(console.log).mock.calls.map(([line]) => String(line));
    expect(lines).toEqual([
      expect.stringMatching(
        /^GET \/v2\/account -> 200 \(trace [0-9a-f-]{36}, retry 0, Bearer pk_sandbox_\*\*\*\)$/,
      ),
      expect.stringMatching(
        /^POST \/v2\/users -> 201 \(trace [0-9a-f-]{36}, retry 0, Bearer pk_sandbox_\*\*\*\)$/,
      ),
    ]);
  });

  it('the hooks of docs/getting-started.md are the ones examples/hooks.ts runs', () => {
    const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
    const guide = read('docs/getting-started.md').split('## Tracing, logging and metrics')[1] ?? '';
    const block = /```ts\n[\s\S]*?( {2}hooks: \{[\s\S]*?\n {2}\},\n)/.exec(guide)?.[1];
    const example = read('examples/hooks.ts').replace(/^ {4}/gm, '');
    expect(block).toBeTruthy();
    expect(example).toContain(block);
  });

  it('errors (7, 8): validation before sending, 422, shape-B name mismatch, 404 and 429 are typed', async () => {
    const { seen } = await errors();
    expect(seen).toEqual([
      'ValidationError',
      'KYC_INCOMPLETE',
      'NAME_MISMATCH',
      'NotFoundError',
      'RateLimitError',
    ]);
  });

  it.each([
    ['node:http', nodeReceiver],
    ['Express', expressReceiver],
    ['fetch-style', fetchReceiver],
  ])(
    'webhook receiver on %s (6.1, 6.3): verifies the signed user.created the mock delivers',
    async (_, main) => {
      const events = await main();
      expect(events.map((e) => e.event)).toEqual(['user.created']);
    },
  );

  it('the naive webhook receiver (what not to do) fails check-receiver on the checks its mistakes deserve', async () => {
    const report = await naiveReceiver();
    expect(report.ok).toBe(false);
    expect(report.checks.filter((c) => c.grade === 'fail').map((c) => c.name)).toContain(
      'duplicate-delivery',
    );
  });

  it('demo: the whole flow ends completed with a UTR, attribution, verified webhooks and the activity', async () => {
    const lines: string[] = [];
    const result = await demo((line) => lines.push(line));
    expect(result.status).toBe('completed');
    expect(result.utr).toBeTruthy();
    expect(result.rate).toBeTruthy();
    expect(result.webhooks).toContain('transaction.payout_completed');
    expect(result.activity[0]?.id).toBe(result.transactionId);
    // One line per change, each stamped with the virtual time; the attribution line is explained.
    expect(lines.filter((l) => /^\[\d\d:\d\d:\d\d\] /.test(l)).length).toBeGreaterThanOrEqual(10);
    const text = lines.join('\n');
    expect(text).toMatch(
      /quote's [\d.]+ INR\/USD; the pool's rupees cost [\d.]+ INR\/USDT, so they used [\d.]+ USDT/,
    );
    // A newcomer is not told of fees that are not there, and learns what the sweep event is.
    expect(text).toMatch(/the user receives ₹[\d.]+ \(no developer fee set\)/);
    expect(text).not.toMatch(/after fees/);
    expect(text).toMatch(/transaction\.sweep_confirmed \(evt_\w+\): the deposit was swept/);
  });
});
