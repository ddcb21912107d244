// Every public export of the client written in this layer (schemas, resources, helpers) has TSDoc with an
// @example, and every fenced `ts` example type-checks and runs.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import ts from 'typescript';
import { afterAll, expect, test, vi } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const entry = join(root, 'src/index.ts');
const moneyEntry = join(root, 'src/money.ts');
const owned = [
  'src/schemas',
  'src/resources',
  'src/client.ts',
  'src/money.ts',
  'src/kyc-readers.ts',
  'src/internal/poll.ts',
];

function walk(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((name) => walk(join(path, name)));
}
const files = owned.flatMap((p) => walk(join(root, p))).filter((f) => f.endsWith('.ts'));

interface Example {
  name: string;
  code: string;
}

function examplesOf(file: string): Example[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const examples: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*\*\s*```ts\s*$/.test(lines[i] ?? '')) continue;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^\s*\*\s*```\s*$/.test(lines[j] ?? ''); j++) {
      body.push((lines[j] ?? '').replace(/^\s*\* ?/, ''));
    }
    examples.push({ name: `${relative(root, file)}:${i + 1}`, code: `${body.join('\n')}\nexport {};\n` });
    i = j;
  }
  return examples;
}

const examples = files.flatMap(examplesOf);
const dir = mkdtempSync(join(tmpdir(), 'client-doc-examples-'));
const paths = examples.map((example, i) => {
  const path = join(dir, `example-${i}.ts`);
  writeFileSync(path, example.code);
  return path;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('every export of this layer has TSDoc with an @example', () => {
  const program = ts.createProgram([entry], { strict: true, target: ts.ScriptTarget.ES2022, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error('entry not found');
  const ours = (file: string) => owned.some((p) => relative(root, file).startsWith(p));
  const exports = checker.getExportsOfModule(moduleSymbol).filter((symbol) => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    return (target.declarations ?? []).some((d) => ours(d.getSourceFile().fileName));
  });
  expect(exports.length).toBeGreaterThan(150);
  const missing = exports.filter((symbol) => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    return !(target.declarations ?? []).some((d) =>
      ts.getJSDocTags(d).some((tag) => tag.tagName.text === 'example'),
    );
  });
  expect(missing.map((s) => s.name)).toEqual([]);
}, 60_000);

test('the fenced examples type-check', () => {
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
    paths: { 'inr-payouts/money': [moneyEntry], 'inr-payouts': [entry] },
    skipLibCheck: true,
    noEmit: true,
  });
  const diagnostics = ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file && paths.includes(d.file.fileName))
    .map((d) => {
      const index = d.file ? paths.indexOf(d.file.fileName) : -1;
      return `${examples[index]?.name}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
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
      alias: { 'inr-payouts/money': moneyEntry, 'inr-payouts': entry },
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
