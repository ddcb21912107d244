/**
 * A web page on another origin, opened in a real headless Chromium while the mock runs, tries what any
 * site the developer visits could: a `text/plain` form post that points the webhooks at itself, a form
 * post and an `<img>` that reset the state, a no-cors `fetch`, and a JSON `fetch` (which needs a preflight).
 * None of it changes the mock's state. The same attacks aimed at the attacker's own server arrive, so the
 * browser did send them.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type RunningServer, startServer } from '../mock/server/support.js';
import { launchChromium } from './chromium.js';

let server: RunningServer;
let browser: Browser;
let attacker: Server;
let attackerPort: number;
const received: { method: string; url: string; type: string; body: string }[] = [];

function attackPage(target: string, sink: string): string {
  const json = '{"webhookUrl":"http://127.0.0.1:9/stolen","x":"';
  const forms = [target, sink]
    .map(
      (base, i) => `
<iframe name="f${i}a"></iframe><iframe name="f${i}b"></iframe>
<form id="plain${i}" method="post" enctype="text/plain" target="f${i}a" action="${base}/__mock/accounts/update">
  <input type="hidden" name='${json}' value='"}'></form>
<form id="reset${i}" method="post" target="f${i}b" action="${base}/__mock/reset"></form>
<img src="${base}/__mock/reset?from=img">`,
    )
    .join('');
  return `<!doctype html><html><body>${forms}
<script>
  document.getElementById('plain0').submit(); document.getElementById('reset0').submit();
  document.getElementById('plain1').submit(); document.getElementById('reset1').submit();
  const results = [];
  for (const base of ['${target}', '${sink}']) {
    results.push(fetch(base + '/__mock/reset?from=no-cors', { method: 'POST', mode: 'no-cors' }).catch(() => null));
    results.push(fetch(base + '/__mock/accounts/update?from=json', { method: 'POST',
      headers: { 'Content-Type': 'application/json' }, body: '{"webhookUrl":"http://127.0.0.1:9/stolen"}' })
      .catch(() => null));
  }
  Promise.all(results).then(() => setTimeout(() => { document.title = 'done'; }, 1500));
</script></body></html>`;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    req.on('end', () => resolve(text));
  });
}

beforeAll(async () => {
  server = await startServer();
  attacker = createServer(async (req, res) => {
    const url = req.url ?? '/';
    if (url.startsWith('/attack')) {
      const target = new URL(url, 'http://x').searchParams.get('target') ?? '';
      const sink = `http://${req.headers.host}`;
      res.writeHead(200, { 'content-type': 'text/html' }).end(attackPage(target, sink));
      return;
    }
    received.push({
      method: req.method ?? '',
      url,
      type: req.headers['content-type'] ?? '',
      body: await readBody(req),
    });
    res.writeHead(200).end();
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerPort = (attacker.address() as AddressInfo).port;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (attacker ? attacker.close(() => resolve()) : resolve()));
  await server?.stop();
});

async function snapshot(): Promise<string> {
  const answer = await fetch(`${server.url}/__mock/snapshot`);
  return JSON.stringify(((await answer.json()) as { data: unknown }).data);
}

describe('a page on another origin cannot change the mock', () => {
  // localhost is another site than 127.0.0.1; 127.0.0.1 on another port is the same site, another origin.
  for (const [index, attackerHost] of ['localhost', '127.0.0.1'].entries()) {
    it(`form posts, an image and fetches from http://${attackerHost}:<port> change nothing`, async () => {
      const userId = await createUser(server, `98765000${index}0`);
      received.length = 0;
      const before = await snapshot();
      const page = await browser.newPage();
      const attackUrl = `http://${attackerHost}:${attackerPort}/attack?target=${encodeURIComponent(server.url)}`;
      await page.goto(attackUrl);
      await page.waitForFunction(() => document.title === 'done', undefined, { timeout: 20_000 });
      await page.close();

      // The browser sent them: the same attacks aimed at the attacker's own server arrived.
      const plain = received.find(
        (r) => r.url === '/__mock/accounts/update' && r.type.startsWith('text/plain'),
      );
      expect(plain?.body).toContain('"webhookUrl":"http://127.0.0.1:9/stolen"');
      expect(received.some((r) => r.url === '/__mock/reset?from=img' && r.method === 'GET')).toBe(true);
      expect(received.some((r) => r.url === '/__mock/reset' && r.method === 'POST')).toBe(true);

      // The mock's state is exactly as it was: the user is still there and no webhook URL was set.
      expect(await snapshot()).toBe(before);
      const account = await fetch(`${server.url}/__mock/accounts/get`).then((r) => r.json());
      expect(account.data.webhookUrl).toBeUndefined();
      expect(Object.keys(JSON.parse(before).users.byId)).toContain(userId);
    });
  }
});
