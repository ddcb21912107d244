/**
 * The consumer projects (test/consumers/, run against the packed package by scripts/consumers/run.mjs) copy
 * the guides' code exactly, so a guide that changes without its consumer fails here, in `npm test`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(`${root}${path}`, 'utf8');
const tsBlocks = (markdown: string) => [...markdown.matchAll(/```ts\n(.*?)```/gs)].map((m) => m[1] ?? '');

describe('consumers written from the guides', () => {
  it('the Vitest consumer holds every code block of the testing guide, unchanged', () => {
    const guide = tsBlocks(read('docs/testing-with-the-mock.md'));
    expect(guide.length).toBeGreaterThanOrEqual(2);
    const consumer = read('test/consumers/vitest/payouts.test.ts');
    const indented = (block: string) => block.replace(/^(?=.)/gm, '    ');
    for (const block of guide)
      expect(consumer.includes(block) || consumer.includes(indented(block))).toBe(true);
  });

  it("the Jest consumer holds the testing guide's Jest block (CommonJS, mock.fetch), unchanged", () => {
    const guide = read('docs/testing-with-the-mock.md');
    const block = [...guide.matchAll(/```js\n(.*?)```/gs)].map((m) => m[1] ?? '')[0] ?? '';
    expect(block).toContain("require('inr-payouts/mock')");
    expect(read('test/consumers/jest/testing-guide.test.js')).toContain(block);
  });

  it("the Node ESM script is the getting-started guide's embedded-mock block, unchanged", () => {
    const guide = read('docs/getting-started.md');
    const section = guide.slice(guide.indexOf('## Against the embedded mock'));
    const block = tsBlocks(section)[0] ?? '';
    expect(block).toContain('createMockService');
    expect(read('test/consumers/node-scripts/getting-started.mjs')).toContain(block);
  });
});
