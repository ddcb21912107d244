// The link check CI runs over the built docs site (scripts/docs/check-links.mjs) finds each kind of broken link.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, expect, it } from 'vitest';
import { root } from './tsdoc-examples.js';

const run = promisify(execFile);
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function site(pages: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'site-'));
  dirs.push(dir);
  for (const [name, html] of Object.entries(pages)) writeFileSync(join(dir, name), html);
  return dir;
}

const check = (dir: string) =>
  run('node', [join(root, 'scripts/docs/check-links.mjs'), dir]).then(
    ({ stdout }) => ({ code: 0, out: stdout }),
    (error: { code: number; stderr: string }) => ({ code: error.code, out: error.stderr }),
  );

it('passes a site whose links and anchors all resolve', async () => {
  const dir = site({
    'index.html': '<a href="b.html#there">b</a> <a href="https://example.com/x">out</a> <img src="b.html">',
    'b.html': '<h2 id="there">There</h2><a href="index.html">back</a><a href="#there">self</a>',
  });
  expect(await check(dir)).toMatchObject({ code: 0 });
});

it('reports a missing file, a missing anchor and a file name turned into a web address', async () => {
  const dir = site({
    'index.html':
      '<a href="gone.html">x</a> <a href="b.html#nowhere">y</a> <a href="http://PRODUCT.md">z</a>',
    'b.html': '<p>no anchors</p>',
  });
  const { code, out } = await check(dir);
  expect(code).toBe(1);
  expect(out).toContain('gone.html names no file of the site');
  expect(out).toContain('b.html#nowhere names no anchor #nowhere');
  expect(out).toContain('http://PRODUCT.md is a file name turned into a web address');
});
