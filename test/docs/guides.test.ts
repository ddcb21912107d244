// The code a reader copies from the README and the guides in docs/ type-checks against the package, so the prose
// cannot drift from the API. The blocks are fragments (they use your userId, your request), so they are checked,
// not run; the runnable versions are in examples/ and run in test/examples.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, expect, test } from 'vitest';
// The names a fragment takes from the reader's code are declared as the consumer of the shipped guides declares them.
import { ambientFor, toModule } from '../consumers/shipped-lines/fragments.mjs';
import { entries, root } from './tsdoc-examples.js';

const files = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const blocks = files.flatMap((file) =>
  [...readFileSync(join(root, file), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => ({
    where: `${file}:${readFileSync(join(root, file), 'utf8').slice(0, m.index).split('\n').length}`,
    code: m[1] ?? '',
  })),
);
const dir = join(root, `node_modules/.cache/guide-blocks-${process.pid}`);
mkdirSync(dir, { recursive: true });
const paths = blocks.map((block, i) => {
  const path = join(dir, `block-${i}.ts`);
  // Fragments that declare their own client or mock keep them; the rest get the runner's.
  writeFileSync(path, `${ambientFor(block.code)}\n${toModule(block.code)}`);
  return path;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('the README and the guides have ts blocks', () => {
  expect(blocks.length).toBeGreaterThan(10);
});

test('every ts block of the README and the guides type-checks', () => {
  const program = ts.createProgram(paths, {
    strict: true,
    // The strictest flags partners compile with: an optional option must take undefined (process.env.X).
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    moduleDetection: ts.ModuleDetectionKind.Force,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: ['node'],
    typeRoots: [join(root, 'node_modules/@types')],
    paths: Object.fromEntries(Object.entries(entries()).map(([name, file]) => [name, [file]])),
    esModuleInterop: true,
    skipLibCheck: true,
    noEmit: true,
  });
  const diagnostics = ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file && paths.includes(d.file.fileName))
    .map((d) => {
      const block = d.file ? blocks[paths.indexOf(d.file.fileName)] : undefined;
      return `${block?.where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
  expect(diagnostics).toEqual([]);
}, 120_000);
