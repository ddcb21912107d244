import { createServer, type Server } from 'node:http';
import type { WebhookEventType } from 'inr-payouts/webhooks';
import { createWebhookHandler, toNodeHandler, type WebhookEventHandlers } from 'inr-payouts/webhooks/handler';
import { describe, expect, it } from 'vitest';
import { createNaiveWebhookServer } from '../../../examples/webhooks/naive.js';
import { checkReceiver, formatReceiverReport } from '../../../mock/index.js';
import { NEXT, ours, receiversPerTest, SECRET } from './support.js';

// `check-receiver` against the receivers kept in examples/webhooks/: the naive one fails the checks its mistakes
// deserve, ours (createWebhookHandler) passes every one; plus receivers that act on few event types, a slow one and
// a crashing one. The command line: cli.test.ts.

const listen = receiversPerTest();

/** createWebhookHandler acting on `types` only, on node:http. */
function actingOn(types: readonly WebhookEventType[], handled: string[] = []): Server {
  const on: WebhookEventHandlers = {};
  for (const type of types) on[type] = async (event: { id: string }) => void handled.push(event.id);
  return createServer(toNodeHandler(createWebhookHandler({ secret: SECRET, on, logLevel: 'off' })));
}

const failed = (report: { checks: { name: string; grade: string }[] }) =>
  report.checks.filter((c) => c.grade === 'fail').map((c) => c.name);

describe('check-receiver (spec 6.3, 6.4)', () => {
  it('passes our receiver (createWebhookHandler) on every check, rotation included', async () => {
    const handled: string[] = [];
    const url = await listen(ours(handled));
    const report = await checkReceiver({ url, secret: [SECRET, NEXT], retryDelay: 0, runId: 'ours' });
    expect(failed(report)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.counts).toEqual({ pass: 13, fail: 0, warn: 0, skip: 0 });
    // What the answers said is what happened: each event handled once, the refused ones never.
    expect(handled.filter((id) => id.endsWith('_duplicate'))).toEqual(['evt_check_ours_duplicate']);
    expect(handled.filter((id) => id.endsWith('_timeout'))).toEqual(['evt_check_ours_timeout']);
    expect(handled.some((id) => /stale|future|tampered|wrong-secret|missing|malformed/.test(id))).toBe(false);
    expect(handled).toContain('evt_check_ours_rejected-retry');
  });

  it('fails the naive receiver (JSON parsed before verifying, no tolerance, one secret, no dedupe) on named checks', async () => {
    const handled: string[] = [];
    const url = await listen(
      createNaiveWebhookServer({ secret: SECRET, onEvent: (e) => void handled.push(e.id) }),
    );
    const report = await checkReceiver({ url, secret: [SECRET, NEXT], retryDelay: 0, runId: 'naive' });
    expect(report.ok).toBe(false);
    expect(failed(report)).toEqual([
      'raw-bytes',
      'stale-timestamp',
      'future-timestamp',
      'rotation',
      'duplicate-delivery',
      'timeout-retry',
    ]);
    // The duplicate really was processed twice: the report's verdict matches the receiver's behaviour.
    expect(handled.filter((id) => id.endsWith('_duplicate'))).toHaveLength(2);
    const stale = report.checks.find((c) => c.name === 'stale-timestamp');
    expect(stale).toMatchObject({
      received: expect.stringMatching(/^200 in \d+ ms$/),
      expected: expect.stringContaining('401'),
    });
    expect(stale?.fix).toMatch(/tolerance/);
  });

  it('checks "processed once" on a type the receiver acts on: one acting on user.kyc_updated only passes', async () => {
    const handled: string[] = [];
    const url = await listen(actingOn(['user.kyc_updated'], handled));
    const report = await checkReceiver({ url, secret: SECRET, retryDelay: 0, runId: 'kyc' });
    expect(failed(report)).toEqual([]);
    expect(report.counts).toEqual({ pass: 12, fail: 0, warn: 0, skip: 1 }); // one secret: no rotation
    const duplicate = report.checks.find((c) => c.name === 'duplicate-delivery');
    expect(duplicate?.sent).toMatch(/^user\.kyc_updated evt_check_kyc_duplicate-1 twice/);
    expect(handled.filter((id) => id.startsWith('evt_check_kyc_duplicate'))).toEqual([
      'evt_check_kyc_duplicate-1',
    ]);
    expect(handled).toContain('evt_check_kyc_rejected-retry-1');
  });

  it('skips the checks of "processed once" for a receiver that acts on none of the types sent, and says why', async () => {
    const url = await listen(actingOn(['transaction.sweep_failed']));
    const report = await checkReceiver({ url, secret: SECRET, retryDelay: 0 });
    const skipped = report.checks.filter((c) => c.grade === 'skip').map((c) => c.name);
    expect(skipped).toEqual(['rotation', 'duplicate-delivery', 'timeout-retry']);
    expect(report.checks.find((c) => c.name === 'duplicate-delivery')?.fix).toMatch(/acts on none of these/);
  });

  it("names the package's handler in its advice", async () => {
    const report = await checkReceiver({
      url: await listen(createNaiveWebhookServer({ secret: SECRET, onEvent: () => {} })),
      secret: [SECRET, NEXT],
      retryDelay: 0,
    });
    for (const name of ['duplicate-delivery', 'timeout-retry', 'rotation']) {
      expect(report.checks.find((c) => c.name === name)?.fix, name).toContain(
        'createWebhookHandler from inr-payouts/webhooks/handler',
      );
    }
    expect(JSON.stringify(report)).not.toMatch(/createDeduplicator|dedupe\.forget/);
  });

  it('skips the rotation check with one secret and says how to run it', async () => {
    const url = await listen(ours());
    const report = await checkReceiver({ url, secret: SECRET, retryDelay: 0 });
    expect(report.ok).toBe(true);
    expect(report.checks.find((c) => c.name === 'rotation')).toMatchObject({
      grade: 'skip',
      fix: expect.stringContaining('--next-secret'),
    });
  });

  it('fails a receiver slower than the delivery time-out (configurable, 30 s by default)', async () => {
    const slow = createServer((req, res) => {
      req.resume();
      setTimeout(() => res.writeHead(200).end('{}'), 300);
    });
    const url = await listen(slow);
    const report = await checkReceiver({ url, secret: SECRET, timeout: 100, retryDelay: 0 });
    expect(report.timeoutMs).toBe(100);
    const valid = report.checks.find((c) => c.name === 'valid-event');
    expect(valid).toMatchObject({
      grade: 'fail',
      received: expect.stringMatching(/^no answer within \d+ ms$/),
    });
    expect(valid?.fix).toMatch(/answer within the time-out/);
    expect(failed(report)).toContain('timeout-retry');
  });

  it('grades a warning, not a failure, for a 2xx slower than --fast', async () => {
    const server = createServer((req, res) => {
      req.resume();
      setTimeout(() => res.writeHead(200).end(), 60);
    });
    const report = await checkReceiver({
      url: await listen(server),
      secret: SECRET,
      fast: 20,
      retryDelay: 0,
    });
    expect(report.checks.find((c) => c.name === 'valid-event')?.grade).toBe('warn');
  });

  it('fails a receiver that crashes on bad input (5xx instead of 401) and one that is not there', async () => {
    const crashing = createServer((req, res) => {
      req.resume();
      res.writeHead(500).end();
    });
    const report = await checkReceiver({ url: await listen(crashing), secret: SECRET, retryDelay: 0 });
    expect(report.checks.find((c) => c.name === 'tampered-body')?.fix).toMatch(/5xx makes the service retry/);
    await expect(checkReceiver({ url: 'http://127.0.0.1:9/webhooks', secret: SECRET })).rejects.toThrow(
      /could not reach http:\/\/127\.0\.0\.1:9\/webhooks: fetch failed.*Start the receiver/,
    );
  });

  it('refuses a missing secret or a URL that is not http(s)', async () => {
    await expect(checkReceiver({ url: 'http://127.0.0.1:1/', secret: '' })).rejects.toThrow(/secret/);
    await expect(checkReceiver({ url: 'ftp://example.test/', secret: SECRET })).rejects.toThrow(
      /http\(s\) URL/,
    );
  });

  it('formats one line per check with what was sent, what came back, what is expected and the fix', async () => {
    const url = await listen(createNaiveWebhookServer({ secret: SECRET, onEvent: () => {} }));
    const text = formatReceiverReport(await checkReceiver({ url, secret: SECRET, retryDelay: 0 }));
    const lines = text.split('\n');
    expect(lines).toHaveLength(1 + 13 + 1);
    expect(lines.find((l) => l.startsWith('FAIL stale-timestamp'))).toMatch(
      /sent: .* \| got: 200 in \d+ ms \| expected: 401 .* \| fix: /,
    );
    expect(lines.at(-1)).toMatch(/^\d+ passed, 5 failed, 0 warned, 1 skipped: the receiver fails/);
  });
});
