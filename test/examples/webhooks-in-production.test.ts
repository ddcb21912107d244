// The guide's receiver (docs/webhooks-in-production.md, examples/webhooks/production.ts): down for an hour of the
// mock's clock, then `recover` brings every missed event back and each is processed once. In-process, and as
// `npx tsx` against the standalone server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../examples/webhooks/production.js';
import { type RunningServer, startServer } from '../mock/server/support.js';
import { runExample } from './run-example.js';

describe('examples/webhooks/production.ts', () => {
  it('in-process: three events fail for an hour, two recover runs at once redeliver each once, each processed once', async () => {
    const lines: string[] = [];
    const { runs, events, recovered } = await main((line) => lines.push(line));
    expect(recovered).toBe(3);
    expect(events.size).toBe(3);
    for (const [id, record] of events) {
      // Five refused attempts, then one redelivery: the second recover run was replayed, not sent again.
      expect(record, id).toEqual({ status: 'delivered', attempts: 6 });
      expect(runs.get(id), id).toBe(1);
    }
    expect(lines[1]).toBe('An hour later: 3 events failed after 5 attempts each');
  }, 60_000);

  describe('against the standalone server', () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startServer();
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('runs as a partner runs it, and exits 0 with every event delivered and processed once', async () => {
      const { code, stdout, stderr } = await runExample('examples/webhooks/production.ts', {
        INR_PAYOUTS_BASE_URL: server.url,
      });
      expect(stderr).toBe('');
      expect(code, stdout).toBe(0);
      expect(stdout).toContain('An hour later: 3 events failed after 5 attempts each');
      expect(stdout.match(/: delivered after 6 attempts, processed 1 time\(s\)$/gm)).toHaveLength(3);
    }, 120_000);
  });
});
