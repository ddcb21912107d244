#!/usr/bin/env node
// After tsup: the CommonJS declarations (dist/*.d.cts) read msw's and ky's types from their ES module declarations.
// msw's own CommonJS declarations import `rettime`, an ES module, and ky is ES-module-only (the client's `hooks`
// option has ky's types): TypeScript refuses either in a CommonJS file under moduleResolution node16/nodenext with
// skipLibCheck off (TS1479), in every project that imports the package. A type-only import may pick its resolution
// mode (TypeScript 5.3+), so this rewrites `import { X } from 'msw'` (or 'ky') in each .d.cts to
// `import type { X } from 'msw' with { 'resolution-mode': 'import' }`, and drops the bare `import 'ky';` tsup leaves.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const TYPE_IMPORT = /^import (?:type )?(\{[^}]*\}) from '((?:msw|ky)(?:\/[\w-]+)?)';$/gm;
const BARE_IMPORT = /^import '(?:msw|ky)(?:\/[\w-]+)?';\n/gm;

let rewritten = 0;
for (const file of readdirSync(dist).filter((name) => name.endsWith('.d.cts'))) {
  const path = join(dist, file);
  const text = readFileSync(path, 'utf8');
  const next = text.replace(BARE_IMPORT, '').replace(TYPE_IMPORT, (_line, names, specifier) => {
    rewritten += 1;
    return `import type ${names} from '${specifier}' with { 'resolution-mode': 'import' };`;
  });
  if (/^import .* from '(msw|ky)[^']*';$/m.test(next)) {
    throw new Error(
      `${file}: an msw or ky import this script cannot rewrite; see scripts/build/msw-types.mjs`,
    );
  }
  if (next !== text) writeFileSync(path, next);
}
if (rewritten === 0) throw new Error('no msw import found in dist/*.d.cts: is the build complete?');
console.log(`msw and ky types: ${rewritten} import(s) in dist/*.d.cts read their ES module declarations`);
