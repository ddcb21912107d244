/**
 * The built docs site (`npm run docs`, in docs-site/) in a real headless Chromium at a laptop's 1280 px: every page
 * is screenshotted (test/browser/.screenshots/docs/) and fails when the page, or any code block, table or picture
 * in it, is wider than the room it has, so that a reader never scrolls sideways to read an example.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const site = join(root, 'docs-site');
const shots = join(root, 'test/browser/.screenshots/docs');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

let server: Server;
let base: string;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(join(site, 'index.html')))
    throw new Error('docs-site/ is missing: build it with npm run docs');
  server = createServer((req, res) => {
    const path = resolve(site, `.${decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)}`);
    const file = path.endsWith('/') ? join(path, 'index.html') : path;
    if (!file.startsWith(site) || !existsSync(file) || statSync(file).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  mkdirSync(shots, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
});

/** typedoc's script hides the page until it has set it up: measure only once the content is laid out. */
async function shown(page: Page) {
  await page.waitForFunction(() => {
    const content = document.querySelector('.col-content');
    return document.body.style.display !== 'none' && content !== null && content.clientWidth > 0;
  });
}

/** What is wider than its room on the page open in the browser, described for the failure message. */
const measure = () => {
  const wide: string[] = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth + 1)
    wide.push(`the page is ${doc.scrollWidth}px wide in ${doc.clientWidth}px`);
  for (const el of document.querySelectorAll<HTMLElement>(
    '.col-content pre, .col-content table, .col-content img',
  )) {
    const room = el.parentElement?.clientWidth ?? 0;
    const width = Math.max(el.scrollWidth, el.getBoundingClientRect().width);
    if (el.scrollWidth > el.clientWidth + 1 || width > room + 1) {
      const text = (el.textContent ?? el.getAttribute('src') ?? '').trim().slice(0, 60).replace(/\s+/g, ' ');
      wide.push(`<${el.tagName.toLowerCase()}> ${Math.round(width)}px in ${room}px: ${text}`);
    }
  }
  return wide;
};

describe('the docs site at 1280 px', () => {
  const pages = existsSync(site)
    ? walk(site)
        .filter((file) => file.endsWith('.html'))
        .map((file) => relative(site, file))
        .sort()
    : [];

  it('has the landing page, every guide and every entry', () => {
    expect(pages).toContain('index.html');
    expect(pages.filter((p) => p.startsWith('documents/')).length).toBeGreaterThanOrEqual(10);
    for (const module of ['inr-payouts', 'inr-payouts_webhooks', 'inr-payouts_money', 'inr-payouts_mock']) {
      expect(pages).toContain(`modules/${module}.html`);
    }
    // The landing page is titled once (typedoc's own heading), and no guide's text turned into a quotation.
    expect(readFileSync(join(site, 'index.html'), 'utf8').match(/<h1[\s>]/g)).toHaveLength(1);
    for (const path of pages.filter((p) => p.startsWith('documents/'))) {
      expect(readFileSync(join(site, path), 'utf8'), path).not.toContain('<blockquote');
    }
  });

  it('no page and no code block, table or picture overflows sideways', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const overflowing: string[] = [];
    const queue = [...pages];
    // Two tabs, one per core: the site has some 570 pages, and one tab took most of ten minutes.
    const tab = async () => {
      const page = await context.newPage();
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
        await page.goto(`${base}/${path}`, { waitUntil: 'load' });
        await shown(page);
        for (const what of await page.evaluate(measure)) overflowing.push(`${path}: ${what}`);
        await page.screenshot({ path: join(shots, `${path.replace(/\//g, '__')}.png`), fullPage: true });
      }
    };
    await Promise.all([tab(), tab()]);
    await context.close();
    expect(overflowing.sort()).toEqual([]);
  }, 900_000);

  it('the diagrams are pictures that load, not text', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    for (const guide of ['kyc-onboarding', 'transactions', 'prefunded', 'webhooks']) {
      await page.goto(`${base}/documents/${guide}.html`, { waitUntil: 'load' });
      await shown(page);
      const images = await page.$$eval('.col-content img[src*="media/"]', (imgs) =>
        imgs.map((img) => (img as HTMLImageElement).naturalWidth),
      );
      expect(images.length, guide).toBeGreaterThan(0);
      for (const width of images) expect(width, guide).toBeGreaterThan(100);
    }
    await page.close();
  });
});
