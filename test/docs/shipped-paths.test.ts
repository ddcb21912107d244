/**
 * The docs a partner reads cite only what the package ships: every relative link, every repository path in
 * inline code (`examples/webhooks/express.ts`, `dist/mock.d.ts`) and every link into the repository on GitHub, in
 * the README and the guides, names a file that `files` in package.json puts in the tarball (and that exists, for
 * what is not built). The repository's own CONTRIBUTING is the one page outside it a partner is pointed to.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from './tsdoc-examples.js';

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[] };
const REPOSITORY = 'https://github.com/inr-payouts/inr-payouts/';
/** Pages of the repository a shipped doc may link to: they are about developing the package, not using it. */
const REPOSITORY_PAGES = new Set(['CONTRIBUTING.md']);

/** Whether `path` (relative to the root, no trailing slash) is one `files` ships. */
function ships(path: string): boolean {
  return pkg.files.some((entry) => {
    if (!entry.includes('*')) return path === entry || path.startsWith(`${entry}/`);
    const pattern = new RegExp(`^${entry.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*')}$`);
    return pattern.test(path);
  });
}

/** A directory ships when a file of it does. */
function shipsUnder(dir: string): boolean {
  if (!existsSync(join(root, dir))) return false;
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' }).some(
    (file) => statSync(join(root, dir, file)).isFile() && ships(join(dir, file)),
  );
}

function shipped(path: string): boolean {
  const clean = normalize(path).replace(/\/$/, '');
  if (clean.startsWith('dist/') || clean === 'dist') return ships(clean);
  if (!existsSync(join(root, clean))) return false;
  return statSync(join(root, clean)).isDirectory() ? shipsUnder(clean) : ships(clean);
}

const docs = readdirSync(join(root, 'docs'))
  .map((file) => `docs/${file}`)
  .concat('README.md')
  .filter((file) => file.endsWith('.md') && ships(file));

function citations(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const prose = text.replace(/```[\s\S]*?```/g, '');
  const cited: string[] = [];
  for (const [, target = ''] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (target.startsWith(REPOSITORY)) {
      const path =
        target
          .slice(REPOSITORY.length)
          .replace(/^(?:blob|tree)\/[^/]+\//, '')
          .split('#')[0] ?? '';
      if (!REPOSITORY_PAGES.has(path) && path !== '' && !path.startsWith('issues')) cited.push(path);
    } else if (!/^[a-z]+:/i.test(target) && !target.startsWith('#')) {
      cited.push(relative(root, join(root, dirname(file), decodeURIComponent(target.split('#')[0] ?? ''))));
    }
  }
  for (const [, path = ''] of prose.matchAll(
    /`((?:src|mock|test|examples|scripts|dist|docs|\.ci|\.runtimes)\/[^`\s]*)`/g,
  ))
    cited.push(path);
  return cited;
}

describe('the shipped docs cite only what ships', () => {
  it('finds the README and the guides among the files the package ships', () => {
    expect(docs).toContain('README.md');
    expect(docs).toContain('docs/testing-with-the-mock.md');
    expect(ships('examples/testing-with-the-mock.test.ts')).toBe(true);
    expect(ships('src/webhooks/events.ts')).toBe(false);
    expect(docs.flatMap(citations).length).toBeGreaterThan(50);
    expect(citations('docs/webhook-events.md')).toContain('dist/webhooks.d.ts');
  });

  it.each(docs)('%s', (file) => {
    const missing = citations(file).filter((path) => !shipped(path));
    expect(missing, `${file} cites what the package does not ship`).toEqual([]);
  });
});
