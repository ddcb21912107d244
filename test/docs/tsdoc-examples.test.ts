// The API reference cannot drift from the code: every public export of every entry has TSDoc, every exported
// function and class has an @example (other exports may have one), each example is a fenced ts block, and all of
// them type-check (one program) and run against the mock.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { bundleExamples, collectExamples, entries, isFenced, root, toModule } from './tsdoc-examples.js';

const entryFiles = entries();
const examples = collectExamples(['src', 'mock']);
// Inside the repository, so the examples resolve msw, zod and the rest from its node_modules.
const dir = join(root, `node_modules/.cache/tsdoc-examples-${process.pid}`); // one per run: suites may run at once
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const paths = examples.map((example, i) => {
  const path = join(dir, `example-${i}.ts`);
  writeFileSync(path, toModule(example.code));
  return path;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const compilerOptions: ts.CompilerOptions = {
  strict: true,
  noUncheckedIndexedAccess: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  moduleDetection: ts.ModuleDetectionKind.Force,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: ['node'],
  typeRoots: [join(root, 'node_modules/@types')],
  paths: Object.fromEntries(Object.entries(entryFiles).map(([name, file]) => [name, [file]])),
  esModuleInterop: true,
  skipLibCheck: true,
  noEmit: true,
};

const target = (checker: ts.TypeChecker, symbol: ts.Symbol) =>
  symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
const exampleTags = (node: ts.Node) => ts.getJSDocTags(node).filter((t) => t.tagName.text === 'example');
const where = (node: ts.Node) => {
  const file = node.getSourceFile();
  return `${relative(root, file.fileName)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
};

describe('TSDoc of the public entries', () => {
  const program = ts.createProgram(Object.values(entryFiles), compilerOptions);
  const checker = program.getTypeChecker();
  const exported = Object.entries(entryFiles).flatMap(([entry, file]) => {
    const source = program.getSourceFile(file);
    const module = source && checker.getSymbolAtLocation(source);
    if (!module) throw new Error(`entry ${entry} (${file}) not found`);
    return checker.getExportsOfModule(module).map((symbol) => ({ entry, symbol: target(checker, symbol) }));
  });

  test('every entry exports something', () => {
    expect(exported.length).toBeGreaterThan(200);
  });

  test('every declaration of a public export has TSDoc', () => {
    const undocumented = exported.flatMap(({ entry, symbol }) =>
      documentable(symbol)
        .filter((d) => !hasDescription(d))
        .map((d) => `${entry}: ${symbol.name} (${where(d)})`),
    );
    expect(undocumented).toEqual([]);
  });

  test('every public function and class has an @example, but for the kinds of an answered error', () => {
    // An APIError of one status or kind is caught, never called or built: APIError's example shows catching each.
    const answeredErrorKind = (d: ts.Declaration) =>
      ts.isClassDeclaration(d) &&
      (d.heritageClauses ?? []).some((clause) =>
        clause.types.some((t) => /^API\w*Error$/.test(t.expression.getText())),
      );
    const callable = exported.filter(({ symbol }) =>
      (symbol.declarations ?? []).some((d) => isCallable(d) && !answeredErrorKind(d)),
    );
    // The rule must have something to hold: the webhook verifiers and the client are functions and classes.
    expect(callable.length).toBeGreaterThan(20);
    const missing = callable
      .filter(({ symbol }) => !(symbol.declarations ?? []).some((d) => exampleTags(d).length > 0))
      .map(({ entry, symbol }) => `${entry}: ${symbol.name}`);
    expect(missing).toEqual([]);
  });

  test('every @example of a public export (and of its class and interface members) is a fenced ts block', () => {
    const nodes = exported.flatMap(({ symbol }) =>
      (symbol.declarations ?? []).flatMap((d): ts.Node[] =>
        ts.isClassDeclaration(d)
          ? [d, ...d.members.filter((m) => !isPrivate(m))]
          : ts.isInterfaceDeclaration(d)
            ? [d, ...d.members]
            : [d],
      ),
    );
    const inline = [...new Set(nodes)]
      .filter((node) => exampleTags(node).some((tag) => !isFenced(tag)))
      .map((node) => where(node));
    expect(inline).toEqual([]);
  });
});

// An overloaded function is documented on its signatures, not on the implementation.
function documentable(symbol: ts.Symbol): ts.Declaration[] {
  const declarations = symbol.declarations ?? [];
  const overloaded = declarations.some((d) => ts.isFunctionDeclaration(d) && d.body === undefined);
  return declarations.filter((d) => !(overloaded && ts.isFunctionDeclaration(d) && d.body !== undefined));
}

// Text of its own, or `@inheritDoc` of a documented sibling (typedoc copies it).
function hasDescription(node: ts.Node): boolean {
  return ts
    .getJSDocCommentsAndTags(node)
    .some(
      (doc) =>
        ts.isJSDoc(doc) &&
        ((ts.getTextOfJSDocComment(doc.comment) ?? '').trim() !== '' ||
          (doc.tags ?? []).some((tag) => tag.tagName.text === 'inheritDoc')),
    );
}

function isCallable(node: ts.Node): boolean {
  if (ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node)) return true;
  const init = ts.isVariableDeclaration(node) ? node.initializer : undefined;
  return init !== undefined && (ts.isArrowFunction(init) || ts.isFunctionExpression(init));
}

function isPrivate(member: ts.ClassElement): boolean {
  const flags = ts.getCombinedModifierFlags(member);
  return (
    (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) !== 0 ||
    (member.name !== undefined && ts.isPrivateIdentifier(member.name))
  );
}

describe('the fenced @example blocks', () => {
  test('there are examples to run', () => {
    expect(examples.length).toBeGreaterThan(50);
  });

  test('all type-check as one program', () => {
    const program = ts.createProgram(paths, compilerOptions);
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file && paths.includes(d.file.fileName))
      .map((d) => {
        const example = d.file ? examples[paths.indexOf(d.file.fileName)] : undefined;
        return `${example?.where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      });
    expect(diagnostics).toEqual([]);
  }, 120_000);

  // One esbuild run for all examples (shared chunks), then each test imports its own module.
  let built: Promise<void> | undefined;
  const buildAll = () => {
    built ??= bundleExamples(paths, dir);
    return built;
  };

  test.each(examples.map((example, i) => ({ ...example, i })))(
    'runs $where',
    async ({ i }) => {
      await buildAll();
      const log = vi.spyOn(console, 'log').mockImplementation(() => {});
      try {
        await import(pathToFileURL(join(dir, 'out', `example-${i}.mjs`)).href);
      } finally {
        log.mockRestore();
      }
    },
    60_000,
  );
});
