// docs/coming-from-stripe-or-openai.md shows each convention beside stripe-node and openai-node; its ts blocks are
// ours, and each one runs here against the in-process mock (toModule gives it `client` and `mock`).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, test, vi } from 'vitest';
import { bundleExamples, root, toModule } from './tsdoc-examples.js';

const page = 'docs/coming-from-stripe-or-openai.md';
const text = readFileSync(join(root, page), 'utf8');
const blocks = [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => ({
  where: `${page}:${text.slice(0, m.index).split('\n').length}`,
  code: m[1] ?? '',
}));
const dir = join(root, `node_modules/.cache/peer-blocks-${process.pid}`);
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const paths = blocks.map((block, i) => {
  const path = join(dir, `block-${i}.ts`);
  writeFileSync(path, toModule(block.code));
  return path;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let built: Promise<void> | undefined;
const buildAll = () => {
  built ??= bundleExamples(paths, dir);
  return built;
};

test('the page shows each convention with runnable blocks', () => {
  expect(blocks.length).toBeGreaterThanOrEqual(5);
});

test.each(blocks.map((block, i) => ({ ...block, i })))(
  'runs $where',
  async ({ i }) => {
    await buildAll();
    const lines: unknown[][] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      lines.push(args);
    });
    try {
      await import(pathToFileURL(join(dir, 'out', `block-${i}.mjs`)).href);
    } finally {
      log.mockRestore();
    }
    // Each block prints what it shows; a block that printed nothing did not get there.
    expect(lines.length).toBeGreaterThan(0);
  },
  60_000,
);
