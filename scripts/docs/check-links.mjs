#!/usr/bin/env node
// Checks every link of the built docs site (docs-site/ from `npm run docs`), offline: each relative href or src must
// name a file of the site, and each #fragment an id on the target page. External links are not fetched (CI has no
// network); they are only checked for the shape of a link a markdown renderer made by mistake from a file name
// (`http://PRODUCT.md`). Exits 1 with one line per broken link. Written here because the well-kept checkers
// (linkinator, lychee) either fetch external links or need a browser or a binary download.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const site = resolve(process.argv[2] ?? 'docs-site');
if (!existsSync(site)) {
  console.error(`${site} does not exist: build the site with npm run docs first`);
  process.exit(1);
}

const pages = readdirSync(site, { recursive: true })
  .filter((file) => file.endsWith('.html'))
  .map((file) => join(site, file));
/** @type {Map<string, Set<string>>} */
const idsByPage = new Map();
const idsOf = (/** @type {string} */ file) => {
  if (!idsByPage.has(file)) {
    const html = readFileSync(file, 'utf8');
    idsByPage.set(file, new Set([...html.matchAll(/\s(?:id|name)="([^"]+)"/g)].map((m) => m[1] ?? '')));
  }
  return idsByPage.get(file);
};

const FILE_LIKE_HOST = /^https?:\/\/[^/]+\.(md|ts|js|json|html?)(\/|$)/i;
const broken = [];
let checked = 0;
for (const page of pages) {
  const html = readFileSync(page, 'utf8');
  for (const match of html.matchAll(/\s(href|src)="([^"]*)"/g)) {
    const link = (match[2] ?? '').replace(/&amp;/g, '&');
    const where = relative(site, page);
    checked += 1;
    if (/^(mailto:|javascript:|data:)/.test(link)) continue;
    if (/^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith('//')) {
      if (FILE_LIKE_HOST.test(link))
        broken.push(`${where}: ${link} is a file name turned into a web address`);
      continue;
    }
    const [pathPart = '', fragment] = link.split('#');
    const path = decodeURIComponent(pathPart.split('?')[0] ?? '');
    const target = path === '' ? page : resolve(dirname(page), path);
    if (!target.startsWith(site) || !existsSync(target)) {
      broken.push(`${where}: ${link} names no file of the site`);
      continue;
    }
    if (path.endsWith('.md'))
      broken.push(`${where}: ${link} is a markdown file the site did not turn into a page`);
    if (fragment && target.endsWith('.html') && !idsOf(target).has(decodeURIComponent(fragment))) {
      broken.push(`${where}: ${link} names no anchor #${fragment} on ${relative(site, target)}`);
    }
  }
}

if (broken.length > 0) {
  console.error(`${broken.length} broken link(s) in ${relative(process.cwd(), site) || site}:`);
  for (const line of broken) console.error(`  ${line}`);
  process.exit(1);
}
console.log(`${checked} links on ${pages.length} pages: all resolve.`);
