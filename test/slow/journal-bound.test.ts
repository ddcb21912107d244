// The journal's bound over a long run (test/mock/engine/journal.test.ts has the rest of its behaviour): in the slow
// tier, since 100,000 requests each checked against openapi.json by the conformance hook take several seconds.
import { describe, expect, it } from 'vitest';
import { JOURNAL_LIMIT } from '../../mock/engine/journal.js';
import { createMockService } from '../../mock/service.js';

describe('the journal over a long run', () => {
  it('keeps at most its limit over a 100,000-request run, dropping the oldest', async () => {
    const mock = createMockService({ seed: 'bound' });
    mock.helpers.accounts.update({ limits: { rateLimit: 1_000_000 } });
    const request = () =>
      mock.dispatch(
        new Request(`${mock.baseUrl}/v2/account`, {
          headers: { authorization: `Bearer ${mock.sandboxKey}` },
        }),
      );
    for (let i = 0; i < 100_000; i++) {
      await request();
      if (i % 10_000 === 0) expect(mock.journal.size).toBeLessThanOrEqual(JOURNAL_LIMIT);
    }
    expect(mock.journal.size).toBe(JOURNAL_LIMIT);
    const entries = mock.journal.entries();
    expect(entries).toHaveLength(JOURNAL_LIMIT);
    // One helper call plus 100,000 requests: the first 90,001 entries are gone, the rest in order.
    expect(entries[0]?.seq).toBe(100_001 - JOURNAL_LIMIT + 1);
    expect(entries.at(-1)).toMatchObject({ seq: 100_001, type: 'request', status: 200 });
    // 100,000 answers, each also checked against openapi.json by the suite's conformance hook: a long test.
  }, 180_000);
});
