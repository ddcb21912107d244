// The reports printed in the guides are real: each is produced again here and compared with the page (the
// receivers' ports, the milliseconds and the seeded IDs aside). UPDATE_DOCS=1 rewrites them.
import { readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createNaiveWebhookServer } from '../../examples/webhooks/naive.js';
import { createWebhookServer } from '../../examples/webhooks/node-http.js';
import { checkReceiver, formatReceiverReport } from '../../mock/index.js';
import { type ChaosRun, closeChaosRuns, runNaive, runWithRecovery } from '../reliability/chaos-ledger.js';
import { root } from './tsdoc-examples.js';

const SECRET = 'whsec_check_current';
const NEXT = 'whsec_check_next';
afterAll(closeChaosRuns);

const BLOCK = (name: string) =>
  new RegExp(`(<!-- report:${name} -->\\n\`\`\`\\w+\\n)([\\s\\S]*?)(\`\`\`\\n<!-- /report -->)`);

/** The printed block `name` of `page`; with UPDATE_DOCS=1, first rewritten to `fresh`. */
function printed(page: string, name: string, fresh: string): string {
  const path = join(root, 'docs', page);
  const text = readFileSync(path, 'utf8');
  const match = BLOCK(name).exec(text);
  if (!match) throw new Error(`docs/${page} has no report:${name} block`);
  if (process.env.UPDATE_DOCS) {
    writeFileSync(
      path,
      text.replace(
        BLOCK(name),
        (_, open: string, _old: string, close: string) => `${open}${fresh}\n${close}`,
      ),
    );
    return `${fresh}\n`;
  }
  return match[2] ?? '';
}

/** Ports and milliseconds change every run; everything else must be the same. */
const stable = (text: string) =>
  text
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')
    .replace(/\d+ ms\b(?! time-out)/g, 'N ms')
    .trim();

/**
 * The seeded IDs change whenever the mock draws one more random number anywhere (a new field, a new step); the
 * counts, keys and references are what the page shows. test/reliability proves the same seed gives the same bytes.
 */
const withoutIds = (text: string) =>
  text
    .replace(/\b(txn|usr|pay)_[a-z0-9]+/g, '$1_ID')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID')
    .trim();

async function report(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
    return formatReceiverReport(
      await checkReceiver({ url, secret: [SECRET, NEXT], retryDelay: 0, runId: 'guide' }),
    );
  } finally {
    server.close();
  }
}

describe('the reports printed in the guides', () => {
  it('docs/checking-your-receiver.md: the naive receiver, graded', async () => {
    const fresh = await report(createNaiveWebhookServer({ secret: SECRET, onEvent: () => {} }));
    expect(stable(printed('checking-your-receiver.md', 'naive', fresh))).toBe(stable(fresh));
    expect(fresh).toMatch(/6 failed/);
  });

  it('docs/checking-your-receiver.md: ours, graded', async () => {
    const server = createWebhookServer([SECRET, NEXT], []);
    const fresh = await report(server);
    expect(stable(printed('checking-your-receiver.md', 'ours', fresh))).toBe(stable(fresh));
    expect(fresh).toMatch(/13 passed, 0 failed/);
  });

  /** The ledger `run` left, checked against the page's block `name` (its IDs aside). */
  async function ledgerBlock(name: string, run: Promise<ChaosRun>): Promise<ChaosRun> {
    const done = await run;
    const fresh = JSON.stringify(done.ledger, null, 2);
    // Compared as JSON: the page's block is laid out by the formatter (biome), not by JSON.stringify.
    const page = JSON.stringify(JSON.parse(printed('chaos-and-the-ledger.md', name, fresh)));
    expect(withoutIds(page)).toBe(withoutIds(JSON.stringify(JSON.parse(fresh))));
    return done;
  }

  it('docs/chaos-and-the-ledger.md: createWithRecovery under seed 4 (its IDs aside)', async () => {
    const { ledger } = await ledgerBlock('ledger', runWithRecovery(4));
    expect(ledger.ok).toBe(true);
  });

  it('docs/chaos-and-the-ledger.md: the naive client without a reference under seed 4, paying twice', async () => {
    const { ledger, outcomes } = await ledgerBlock('ledger-naive', runNaive(4, { withReference: false }));
    // What the page says of it: two users paid twice, one of them in INR, and every create reported done.
    expect(ledger.duplicates.map((d) => [d.transactions, d.payouts])).toEqual([
      [2, 2],
      [2, 0],
    ]);
    expect(outcomes.every((o) => o.ok)).toBe(true);
  });
});
