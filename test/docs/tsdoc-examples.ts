/**
 * Finds the TSDoc `@example` blocks of the package's entries and turns each into a module that type-checks and
 * runs against the mock. Used by `tsdoc-examples.test.ts`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import ts from 'typescript';

export const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The package's entries (`inr-payouts`, `inr-payouts/webhooks`, ...) and their source files, read from the
 * tsconfig `paths`, so an entry added there (as `inr-payouts/money` was) is covered without touching this file.
 */
export function entries(): Record<string, string> {
  const config = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile).config as {
    compilerOptions?: { paths?: Record<string, string[]> };
  };
  const paths = config.compilerOptions?.paths ?? {};
  const out: Record<string, string> = {};
  for (const [name, [target]] of Object.entries(paths)) {
    if (name.startsWith('inr-payouts') && target) out[name] = resolve(root, target);
  }
  return out;
}

/** One fenced `ts` block of an `@example` tag. */
export interface TsdocExample {
  /** `file:line` of the block, for test names. */
  where: string;
  code: string;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const COMMENT = /\/\*\*([\s\S]*?)\*\//g;
const FENCE = /```(?:ts|typescript)\n([\s\S]*?)```/g;

/** Every fenced ts block under an `@example` tag in the TSDoc of the given source folders. */
export function collectExamples(folders: string[]): TsdocExample[] {
  const examples: TsdocExample[] = [];
  for (const file of folders.flatMap((f) => walk(join(root, f)))) {
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(COMMENT)) {
      const comment = (match[1] ?? '').replace(/^[ \t]*\* ?/gm, '');
      const at = comment.indexOf('@example');
      if (at < 0) continue;
      for (const block of comment.slice(at).matchAll(FENCE)) {
        const line = source.slice(0, (match.index ?? 0) + (block.index ?? 0)).split('\n').length;
        examples.push({ where: `${relative(root, file)}:${line}`, code: block[1] ?? '' });
      }
    }
  }
  return examples;
}

/** The module an example becomes (with the mock's `client` and `mock` where it uses them undeclared). */
export { toModule } from '../consumers/shipped-lines/fragments.mjs';

/** Whether a TSDoc `@example` tag's text holds a fenced ts block. */
export function isFenced(tag: ts.JSDocTag): boolean {
  const text = typeof tag.comment === 'string' ? tag.comment : ts.getTextOfJSDocComment(tag.comment);
  return /```(?:ts|typescript)\n/.test(text ?? '');
}

/**
 * Bundles the example modules at `paths` into `dir/out` (one esbuild run, shared chunks), resolving the package's
 * entries to their sources and leaving every other package to node: the examples then import `out/<name>.mjs`.
 */
export function bundleExamples(paths: string[], dir: string): Promise<void> {
  return build({
    entryPoints: paths,
    outdir: join(dir, 'out'),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    logLevel: 'silent',
    alias: entries(),
    // Bundling msw or express would only slow every example down.
    packages: 'external',
  }).then(() => undefined);
}
