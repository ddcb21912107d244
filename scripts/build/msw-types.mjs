#!/usr/bin/env node
// After tsup: the declarations of inr-payouts/mock (dist/mock.d.ts and .d.cts) name msw's `HttpHandler` for
// `mock.handlers`, and msw is an optional peer dependency. Two rules for that import:
// - It resolves as the partner's own `import ... from 'msw/node'` does (no `resolution-mode` of its own), so
//   `setupServer(...mock.handlers)` meets the same msw class declarations in a CommonJS file (msw's CommonJS
//   types) and in an ES module (its ESM types); forcing one mode made them two classes (TS2345, "'resolver'
//   is protected").
// - It is marked `@ts-ignore`, so a project without msw (mock.fetch, Jest's default set-up, node:test)
//   type-checks every other export with skipLibCheck off: `handlers` is then untyped, and unusable anyway.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const MSW_IMPORT = /^import (?:type )?(\{[^}]*\}) from '(msw(?:\/[\w-]+)?)';$/gm;
const MARK = '// @ts-ignore msw is an optional peer dependency: without it, only `mock.handlers` is untyped.';

let rewritten = 0;
for (const file of readdirSync(dist).filter((name) => /\.d\.c?ts$/.test(name))) {
  const path = join(dist, file);
  const text = readFileSync(path, 'utf8');
  const next = text.replace(MSW_IMPORT, (_line, names, specifier) => {
    rewritten += 1;
    return `${MARK}\nimport type ${names} from '${specifier}';`;
  });
  if (next !== text) writeFileSync(path, next);
}
if (rewritten !== 2) {
  throw new Error(
    `expected one msw import in each of dist/mock.d.ts and dist/mock.d.cts, rewrote ${rewritten}: ` +
      'is the build complete, or does another declaration file import msw now? See scripts/build/msw-types.mjs',
  );
}
console.log(`msw types: the msw import of dist/mock.d.ts and .d.cts resolves as the partner's, optional`);
