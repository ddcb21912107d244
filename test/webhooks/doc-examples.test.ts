// Every public export of inr-payouts/webhooks has TSDoc with an @example, and every example type-checks and runs.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import ts from 'typescript';
import { afterAll, expect, test, vi } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const srcDir = join(root, 'src/webhooks');
const entry = join(srcDir, 'index.ts');

interface Example {
  name: string;
  code: string;
}

function examplesOf(file: string): Example[] {
  const lines = readFileSync(join(srcDir, file), 'utf8').split('\n');
  const examples: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*\*\s*@example/.test(lines[i] ?? '')) continue;
    let j = i + 1;
    while (j < lines.length && !/^\s*\*\s*```ts/.test(lines[j] ?? '')) j++;
    const body: string[] = [];
    for (j++; j < lines.length && !/^\s*\*\s*```\s*$/.test(lines[j] ?? ''); j++) {
      body.push((lines[j] ?? '').replace(/^\s*\* ?/, ''));
    }
    examples.push({ name: `${file}:${i + 1}`, code: `${body.join('\n')}\nexport {};\n` });
    i = j;
  }
  return examples;
}

const files = readdirSync(srcDir).filter((f) => f.endsWith('.ts'));
const examples = files.flatMap(examplesOf);
const dir = mkdtempSync(join(tmpdir(), 'webhooks-doc-examples-'));
const paths = examples.map((example, i) => {
  const path = join(dir, `example-${i}.ts`);
  writeFileSync(path, example.code);
  return path;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('every public export has TSDoc with an @example', () => {
  const program = ts.createProgram([entry], { strict: true, target: ts.ScriptTarget.ES2022, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error('entry not found');
  const exports = checker.getExportsOfModule(moduleSymbol);
  expect(exports.length).toBeGreaterThan(30);
  const missing = exports.filter((symbol) => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    return !(target.declarations ?? []).some((d) =>
      ts.getJSDocTags(d).some((tag) => tag.tagName.text === 'example'),
    );
  });
  expect(missing.map((s) => s.name)).toEqual([]);
});

test('the examples type-check', () => {
  const program = ts.createProgram(paths, {
    strict: true,
    noUncheckedIndexedAccess: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    moduleDetection: ts.ModuleDetectionKind.Force,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: ['node'],
    typeRoots: [join(root, 'node_modules/@types')],
    paths: { 'inr-payouts/webhooks': [entry] },
    skipLibCheck: true,
    noEmit: true,
  });
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
    const index = d.file ? paths.indexOf(d.file.fileName) : -1;
    const where = index >= 0 ? examples[index]?.name : d.file?.fileName;
    return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
  expect(diagnostics).toEqual([]);
}, 60_000);

test.each(examples.map((example, i) => ({ ...example, path: paths[i] ?? '' })))(
  'the example at $name runs',
  async ({ path }) => {
    const result = await build({
      entryPoints: [path],
      bundle: true,
      format: 'esm',
      platform: 'node',
      write: false,
      logLevel: 'silent',
      alias: { 'inr-payouts/webhooks': entry },
    });
    const out = `${path}.mjs`;
    writeFileSync(out, result.outputFiles[0]?.text ?? '');
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await import(pathToFileURL(out).href);
    } finally {
      log.mockRestore();
    }
  },
);
