// What keeps a run safe against a partner's real service: a live key refused with nothing sent, tiers that
// choose what runs, and every request paced to the account's rate limit.
import { describe, expect, it, vi } from 'vitest';
import { createPacer } from '../../../mock/conformance/pace.js';
import { SCENARIOS as CONFORMANCE_SCENARIOS } from '../../../mock/conformance/scenarios/index.js';
import { ConformanceError, runConformance } from '../../../mock/index.js';

describe('conformance safety', () => {
  it('refuses a pk_live_ key before sending anything', async () => {
    const send = vi.fn<typeof fetch>();
    const run = runConformance({
      baseUrl: 'https://api.example.test',
      apiKey: 'pk_live_abc123',
      fetch: send,
    });
    await expect(run).rejects.toBeInstanceOf(ConformanceError);
    await expect(run).rejects.toThrow(
      /Refusing a pk_live_ key: .* run it against your sandbox with a pk_sandbox_ key/,
    );
    expect(send).not.toHaveBeenCalled();
  });

  it('refuses an unknown tier and a base URL that is not one, before sending anything', async () => {
    const send = vi.fn<typeof fetch>();
    await expect(
      runConformance({ tier: ['read-only', 'everything' as 'creates'], fetch: send }),
    ).rejects.toThrow('Unknown tier "everything": use read-only, creates, mock-helpers');
    await expect(
      runConformance({ baseUrl: 'sandbox.example', apiKey: 'pk_sandbox_1', fetch: send }),
    ).rejects.toThrow('--base-url is not a URL: sandbox.example');
    expect(send).not.toHaveBeenCalled();
  });

  it('runs only the tiers chosen; read-only stores nothing', async () => {
    const report = await runConformance({ tier: 'read-only' });
    expect(report.tiers).toEqual(['read-only']);
    for (const r of report.results) {
      if (r.tier === 'read-only') expect(r.outcome).toBe('same');
      else
        expect(r).toMatchObject({
          outcome: 'skipped',
          reason: `tier ${r.tier} not chosen`,
          mock: [],
          sandbox: [],
        });
    }
    const stored = report.results.flatMap((r) =>
      r.sandbox.flatMap((o) =>
        o.kind === 'exchange' && o.method !== 'GET' && o.status < 300 ? [`${r.id} ${o.label}`] : [],
      ),
    );
    expect(stored).toEqual([]);
    const both = await runConformance({ tier: ['creates', 'read-only'], only: ['kyc.', 'account.read'] });
    expect(both.tiers).toEqual(['read-only', 'creates']);
    expect(both.results.map((r) => r.id)).toEqual(
      CONFORMANCE_SCENARIOS.filter((s) => s.id.startsWith('kyc.') || s.id === 'account.read').map(
        (s) => s.id,
      ),
    );
  }, 30_000);

  it('paces requests to the rate limit: at most that many start in any minute', async () => {
    let now = 0;
    const slept: number[] = [];
    const pacer = createPacer(
      3,
      () => now,
      async (ms) => {
        slept.push(ms);
        now += ms;
      },
    );
    const starts: number[] = [];
    for (let i = 0; i < 7; i++) {
      await pacer.next();
      starts.push(now);
      now += 1_000;
    }
    expect(starts).toEqual([0, 1_000, 2_000, 60_000, 61_000, 62_000, 120_000]);
    expect(slept).toEqual([57_000, 57_000]);
  });

  it('reads the rate limit from the account before anything else, and paces the run to it', async () => {
    const seen: string[] = [];
    const { createMockService } = await import('../../../mock/index.js');
    const target = createMockService({ baseUrl: 'http://sandbox.conformance.test' });
    target.helpers.accounts.update({ limits: { rateLimit: 5_000 } });
    const send: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const path = new URL(request.url).pathname;
      seen.push(`${request.method} ${path}`);
      // A sandbox: no test helpers.
      return path === '/__mock' ? new Response(null, { status: 404 }) : target.fetch(request);
    };
    const report = await runConformance({
      baseUrl: target.baseUrl,
      apiKey: target.sandboxKey,
      fetch: send,
      only: ['account.read'],
    });
    expect(seen.slice(0, 2)).toEqual(['GET /__mock', 'GET /v2/account']);
    expect(report.rateLimit).toBe(5_000);
  });
});
