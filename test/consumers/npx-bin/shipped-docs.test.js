// The documentation travels with the package: every relative link in the installed package's markdown (the
// README and the guides under docs/) points at a file that is in the installed package.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';

const pkg = resolve('node_modules/inr-payouts');

function markdownFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

test('the README and the guides are installed', () => {
  const files = markdownFiles(pkg).map((file) => relative(pkg, file));
  assert.ok(files.includes('README.md'));
  assert.ok(files.includes('docs/getting-started.md'));
  assert.ok(files.includes('docs/mock-server.md'));
});

test('every relative link in the installed markdown resolves inside the package', () => {
  const broken = [];
  let links = 0;
  for (const file of markdownFiles(pkg)) {
    const text = readFileSync(file, 'utf8');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (/^[a-z]+:/i.test(target) || target.startsWith('#')) continue;
      links += 1;
      const path = resolve(dirname(file), decodeURIComponent(target.split('#')[0]));
      if (!path.startsWith(`${pkg}/`) || !existsSync(path)) broken.push(`${relative(pkg, file)}: ${target}`);
    }
  }
  assert.ok(links > 10, `only ${links} relative links found: is the markdown there?`);
  assert.deepEqual(broken, []);
});
