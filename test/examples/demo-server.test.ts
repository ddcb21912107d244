// `npm run demo` against the standalone mock server, as a partner tries it: INR_PAYOUTS_BASE_URL set, standard
// input closed (no terminal), and run twice in a row on the same server, which remembers the first run's user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../mock/server/support.js';
import { runDemo as demo } from './run-example.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('the demo against the standalone server, without a terminal', () => {
  it('completes twice in a row, each run with its own user, one stamped line per change', async () => {
    const users: string[] = [];
    for (const run of [1, 2]) {
      const { code, stdout, stderr } = await demo({ INR_PAYOUTS_BASE_URL: server.url });
      expect(stderr, `run ${run}`).toBe('');
      expect(code, `run ${run}: ${stdout}`).toBe(0);
      expect(stdout).toMatch(/^\[\d\d:\d\d:\d\d\] Paid out ₹[\d.]+ by imps, bank reference \(UTR\) \S+$/m);
      expect(stdout).toMatch(/Rate attribution: [\d.]+ USDT of your pool/);
      expect(stdout).toMatch(/Activity feed/);
      // This server has no webhook URL: the demo says why its events stay pending.
      expect(stdout).toMatch(
        /: pending\n.*pending: this account has no webhook URL, so the service has nowhere/s,
      );
      users.push(/Created user (usr_\S+)/.exec(stdout)?.[1] ?? '');
      // No status is reported twice in a row: a line is a change.
      const steps = stdout.split('\n').filter((line) => line.startsWith('['));
      const texts = steps.map((line) => line.slice(11));
      expect(texts.filter((text, i) => text === texts[i - 1])).toEqual([]);
    }
    expect(users[0]).toMatch(/^usr_/);
    expect(users[1]).not.toBe(users[0]);
  }, 120_000);

  it('an API error is one line saying what the service answered, not a stack trace', async () => {
    const { code, stdout, stderr } = await demo({
      INR_PAYOUTS_BASE_URL: server.url,
      INR_PAYOUTS_API_KEY: 'pk_sandbox_not_a_key_of_this_server',
    });
    expect(code).toBe(1);
    expect(stdout).toContain('Running against');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^Demo stopped\. The service answered 401/);
    expect(stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});
