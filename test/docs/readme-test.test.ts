// The README's test, as printed: its one ts block that imports vitest is written beside this file and imported,
// which registers its hooks and test here, so it runs (msw, the mock, the webhook to the receiver) with the suite.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { root } from './tsdoc-examples.js';

const readme = readFileSync(join(root, 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
const printed = blocks.filter((code) => code.includes("from 'vitest'"));
if (printed.length !== 1)
  throw new Error(`README.md should have one ts block that imports vitest, found ${printed.length}`);
const file = join(root, `test/docs/.readme-block-${process.pid}.ts`);
writeFileSync(file, printed[0] ?? '');
afterAll(() => rmSync(file, { force: true }));
await import(/* @vite-ignore */ file);
