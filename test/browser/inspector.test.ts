/**
 * The inspector page (`/__pages/inspector`) in a real headless Chromium against the real server process, after
 * the demo's whole flow ran over HTTP (`examples/demo.ts`: a user through KYC, a transaction paid out, webhooks
 * to a receiver that refuses the first delivery). Every request, transition and webhook attempt the journal
 * holds is on the page; the filters narrow it; "Copy as curl" copies a command that repeats the request; the
 * state machine marks where a transaction is and where it can go; the page fits a laptop screen.
 *
 * docs/inspector.png is this page at 1280×800: `UPDATE_DOCS=1` rewrites it, otherwise the test checks it is there.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../mock/engine/journal.js';
import { runDemo } from '../examples/run-example.js';
import { type RunningServer, startServer } from '../mock/server/support.js';
import { launchChromium } from './chromium.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const shots = `${root}test/browser/.screenshots`;
const docsShot = `${root}docs/inspector.png`;
const DOCS_SIZE = { width: 1280, height: 800 };

let server: RunningServer;
let receiver: Server;
let browser: Browser;
let demo: { userId: string; transactionId: string; stdout: string };
const received: string[] = [];

async function journal(): Promise<JournalEntry[]> {
  const answer = await fetch(`${server.url}/__mock/journal`);
  return ((await answer.json()) as { data: JournalEntry[] }).data;
}

/** The width the page takes beyond the window, 0 when nothing scrolls sideways. */
function overflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

beforeAll(async () => {
  // The partner's receiver: refuses the very first delivery (so one event is retried), accepts the rest.
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      received.push(body);
      res.writeHead(received.length === 1 ? 500 : 200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hooks = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  server = await startServer(['--webhook-url', hooks]);
  const run = await runDemo({ INR_PAYOUTS_BASE_URL: server.url });
  expect(run.stderr).toBe('');
  expect(run.code, run.stdout).toBe(0);
  demo = {
    userId: /Created user (usr_\S+)/.exec(run.stdout)?.[1] ?? '',
    transactionId: /Transaction (txn_\S+) created/.exec(run.stdout)?.[1] ?? '',
    stdout: run.stdout,
  };
  // Let every retry run and every answer come back before reading the journal.
  expect((await server.helper('clock/advance', '10m')).status).toBe(200);
  expect((await server.helper('webhooks/settle')).status).toBe(200);
  browser = await launchChromium();
  mkdirSync(shots, { recursive: true });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

async function open(
  size: { width: number; height: number },
  search = '',
): Promise<{
  context: BrowserContext;
  page: Page;
}> {
  const context = await browser.newContext({ viewport: size });
  const page = await context.newPage();
  const answer = await page.goto(`${server.url}/__pages/inspector${search}`);
  expect(answer?.status()).toBe(200);
  return { context, page };
}

describe('the inspector after the demo flow', () => {
  it('shows every request, transition and webhook attempt of the flow, in order', async () => {
    expect(demo.userId).toMatch(/^usr_/);
    expect(demo.transactionId).toMatch(/^txn_/);
    const entries = await journal();
    const { context, page } = await open({ width: 1366, height: 768 }, '?limit=10000');
    const shown = await page.$$eval('#timeline li.entry', (items) =>
      items.map((li) => ({ seq: Number(li.getAttribute('data-seq')), text: li.textContent ?? '' })),
    );
    const bySeq = new Map(shown.map((item) => [item.seq, item.text]));
    // The page lists exactly the journal's entries, oldest first by virtual time (a webhook attempt is journalled
    // when its answer comes but dated at its send, so on a loaded machine the two orders can differ).
    const byTime = [...entries].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.seq - b.seq));
    expect(shown.map((item) => item.seq)).toEqual(byTime.map((entry) => entry.seq));
    for (const entry of entries) {
      const text = bySeq.get(entry.seq) ?? '';
      if (entry.type === 'request') {
        expect(text).toContain(`${entry.method} ${entry.path}`);
        expect(text).toContain(String(entry.status));
        if (entry.requestBody) expect(text).toContain(JSON.parse(entry.requestBody) && 'Request body');
      }
      if (entry.type === 'transition') expect(text).toContain(`${entry.from} → ${entry.to}`);
      if (entry.type === 'webhook') {
        expect(text).toContain(entry.eventType);
        expect(text).toContain(`attempt ${entry.attempt}`);
      }
    }
    // The demo's steps, each found on the page.
    const requests = entries.filter((entry) => entry.type === 'request');
    const routes = requests.map((entry) => `${entry.method} ${entry.route} ${entry.status}`);
    for (const step of [
      'POST /v2/users 201',
      'POST /v2/users/:userId/verify/mobile/send 200',
      'POST /v2/users/:userId/verify/mobile/confirm 200',
      'POST /v2/users/:userId/kyc/digilocker/init 200',
      'POST /v2/users/:userId/kyc/bank/verify 200',
      'POST /v2/users/:userId/kyc/refresh 200',
      'POST /v2/transactions 201',
      'GET /v2/transactions/:transactionId 200',
    ]) {
      expect(routes, step).toContain(step);
    }
    // The transaction's own status moves (its attribution, sweep and webhook deliveries move too).
    const transitions = entries.filter(
      (entry) =>
        entry.type === 'transition' &&
        entry.resource === 'transaction' &&
        entry.transactionId === demo.transactionId,
    );
    expect(transitions.map((t) => t.type === 'transition' && t.to)).toEqual([
      'deposit_pending',
      'deposit_detected',
      'deposit_confirmed',
      'payout_processing',
      'completed',
    ]);
    const attempts = entries.filter((entry) => entry.type === 'webhook');
    // The refused first delivery and its retry are both on the page, with the signed body sent each time.
    expect(attempts[0]).toMatchObject({ attempt: 1, ok: false, status: 500 });
    const retried = attempts.find(
      (a) =>
        a.type === 'webhook' && attempts[0]?.type === 'webhook' && a.eventId === attempts[0].eventId && a.ok,
    );
    expect(retried).toMatchObject({ attempt: 2, status: 200 });
    const eventTypes = new Set(attempts.map((a) => a.type === 'webhook' && a.eventType));
    expect(eventTypes).toContain('transaction.payout_completed');
    for (const body of received) {
      expect(await page.locator('#webhooks pre', { hasText: body }).count()).toBeGreaterThan(0);
    }
    await page.screenshot({ path: `${shots}/inspector-1366.png` });
    await context.close();
  });

  it('filters by user and by transaction', async () => {
    // Another user's request, which the demo user's filter must leave out.
    const other = await server.call('POST', '/v2/users', { mobile: '9000000001', name: 'Ravi Kumar' });
    expect(other.status).toBe(201);
    const otherId = (other.body.data as { userId: string }).userId;

    const { context, page } = await open({ width: 1280, height: 800 });
    await page.selectOption('select[name="userId"]', demo.userId);
    await page.waitForURL(new RegExp(`userId=${demo.userId}`));
    expect(new URL(page.url()).searchParams.get('userId')).toBe(demo.userId);
    const timeline = page.locator('#timeline');
    await expect(timeline.textContent()).resolves.toContain('POST /v2/users');
    await expect(timeline.textContent()).resolves.toContain('payout_processing → completed');
    expect(await page.locator(`#timeline a.chip`, { hasText: otherId }).count()).toBe(0);
    expect(await page.locator('#timeline li.entry').count()).toBeGreaterThan(10);

    await page.selectOption('select[name="transactionId"]', demo.transactionId);
    await page.waitForURL(new RegExp(`transactionId=${demo.transactionId}`));
    // Empty filters are left out of the address.
    expect([...new URL(page.url()).searchParams.keys()].sort()).toEqual(['transactionId', 'userId']);
    const items = page.locator('#timeline li.entry');
    const count = await items.count();
    expect(count).toBeGreaterThan(5);
    // Every entry left is about the transaction: it names it.
    for (let i = 0; i < count; i++) {
      await expect(items.nth(i).locator('a.chip', { hasText: demo.transactionId }).count()).resolves.toBe(1);
    }
    await expect(page.locator('#timeline').textContent()).resolves.not.toContain('kyc/refresh');

    // The other user's filter shows their creation and nothing of the demo user's.
    await page.goto(`${server.url}/__pages/inspector?userId=${otherId}`);
    const theirs = page.locator('#timeline li.entry');
    // Their creation (its answer names them), then its user.created webhook and that delivery's moves.
    const kinds = await theirs.evaluateAll((items) => items.map((li) => li.getAttribute('data-type')));
    expect(kinds[0]).toBe('request');
    expect(
      kinds.slice(1).every((kind) => kind === 'webhook' || kind === 'timer' || kind === 'transition'),
    ).toBe(true);
    for (let i = 0; i < kinds.length; i++) {
      await expect(theirs.nth(i).locator('a.chip', { hasText: otherId }).count()).resolves.toBe(1);
    }
    await expect(page.locator('#timeline').textContent()).resolves.toContain('Ravi Kumar');
    await expect(page.locator('#timeline').textContent()).resolves.not.toContain(demo.userId);
    await context.close();
  });

  it('"Copy as curl" copies a command that sends the request again', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const page = await context.newPage();
    await page.goto(`${server.url}/__pages/inspector?transactionId=${demo.transactionId}&type=request`);
    const entry = page.locator('#timeline li.entry', {
      hasText: `GET /v2/transactions/${demo.transactionId}`,
    });
    await entry.last().getByRole('button', { name: 'Copy as curl' }).click();
    // The button says so once the clipboard holds the command.
    await entry.last().getByRole('button', { name: 'Copied' }).waitFor();
    const command = await page.evaluate(() => navigator.clipboard.readText());
    expect(command).toBe(
      `curl '${server.url}/v2/transactions/${demo.transactionId}' \\\n  -H "Authorization: Bearer $INR_PAYOUTS_API_KEY"`,
    );
    const run = promisify(execFile);
    const env = { ...process.env, INR_PAYOUTS_API_KEY: server.key };
    const { stdout } = await run('sh', ['-c', `${command} -s`], { env });
    const direct = await server.call('GET', `/v2/transactions/${demo.transactionId}`);
    expect(JSON.parse(stdout)).toEqual(direct.body);

    // A POST with a body and an idempotency key: the copied command sends the same body under the same key, so
    // the service answers with the stored answer (Idempotent-Replayed).
    const created = page.locator('#timeline li.entry', { hasText: 'POST /v2/transactions' }).first();
    await created.getByRole('button', { name: 'Copy as curl' }).click();
    await created.getByRole('button', { name: 'Copied' }).waitFor();
    const post = await page.evaluate(() => navigator.clipboard.readText());
    expect(post).toMatch(/^curl -X POST '.*\/v2\/transactions' \\\n/);
    expect(post).toContain("-H 'Content-Type: application/json'");
    expect(post).toContain('--data-raw \'{"userId":');
    const replay = await run('sh', ['-c', `${post} -s -D -`], { env });
    expect(replay.stdout).toMatch(/^HTTP\/1\.1 20\d/);
    expect(replay.stdout.toLowerCase()).toContain('idempotent-replayed: true');
    expect(replay.stdout).toContain(demo.transactionId);
    await context.close();
  });

  it('draws the state machine with the current state and the states it can go to next', async () => {
    const { context, page } = await open(
      { width: 1280, height: 800 },
      `?transactionId=${demo.transactionId}`,
    );
    const done = page.locator('svg[data-machine="transaction-standard"]');
    await expect(done.locator('g.state.current').getAttribute('data-state')).resolves.toBe('completed');
    await expect(done.locator('g.state.next').count()).resolves.toBe(0);
    await expect(page.locator('#state').textContent()).resolves.toContain('A final state');

    // A transaction just created: `created`, which can go to deposit_pending or cancelled.
    const seeded = await server.helper('users/seedVerified', { mobile: '9000000002', name: 'Meera Iyer' });
    const userId = (seeded.body.data as { userId: string }).userId;
    const fresh = await server.call('POST', '/v2/transactions', {
      userId,
      amount: '50.00',
      asset: 'USDC',
      network: 'base',
    });
    expect(fresh.status).toBe(201);
    const transactionId = (fresh.body.data as { transactionId: string }).transactionId;
    await page.goto(`${server.url}/__pages/inspector?transactionId=${transactionId}`);
    const machine = page.locator('svg[data-machine="transaction-standard"]');
    await expect(machine.locator('g.state.current').getAttribute('data-state')).resolves.toBe('created');
    const next = await machine
      .locator('g.state.next')
      .evaluateAll((gs) => gs.map((g) => g.getAttribute('data-state')));
    expect(next.sort()).toEqual(['cancelled', 'deposit_pending']);
    // The current state is drawn filled: another colour than the states around it.
    const fills = await machine.evaluate((svg) => {
      const fill = (selector: string) =>
        getComputedStyle(svg.querySelector(`${selector} rect`) as Element).fill;
      return { current: fill('g.state.current'), other: fill('g.state:not(.current):not(.next)') };
    });
    expect(fills.current).not.toBe(fills.other);
    await expect(page.locator('#timers').textContent()).resolves.toContain('transaction');
    await context.close();
  });

  it('fits laptop screens without scrolling sideways; docs/inspector.png is this page', async () => {
    for (const size of [
      { width: 1366, height: 768 },
      { width: 1280, height: 800 },
    ]) {
      const { context, page } = await open(
        size,
        `?userId=${demo.userId}&transactionId=${demo.transactionId}`,
      );
      // Open every body, answer and curl: the longest lines must wrap too.
      await page.$$eval('details', (all) => {
        for (const details of all) (details as HTMLDetailsElement).open = true;
      });
      expect(await overflow(page), `${size.width}x${size.height}`).toBeLessThanOrEqual(0);
      // The picture shows one exchange opened (the transaction's creation: body, answer, curl), the rest closed.
      await page.$$eval('details', (all) => {
        all.forEach((details, i) => {
          (details as HTMLDetailsElement).open = i === 0;
        });
      });
      const png = await page.screenshot({ path: `${shots}/inspector-${size.width}x${size.height}.png` });
      expect(pngSize(png)).toEqual(size);
      // A page with content, not a blank or an error: a blank PNG of this size compresses to a few KB.
      expect(png.byteLength).toBeGreaterThan(40_000);
      if (size.width === DOCS_SIZE.width && process.env.UPDATE_DOCS === '1') writeFileSync(docsShot, png);
      await context.close();
    }
    expect(existsSync(docsShot), 'docs/inspector.png: run with UPDATE_DOCS=1 to write it').toBe(true);
    const committed = readFileSync(docsShot);
    expect(pngSize(committed)).toEqual(DOCS_SIZE);
    expect(committed.byteLength).toBeGreaterThan(40_000);
  });
});
