#!/usr/bin/env node
// After tsup: the CommonJS declarations (dist/*.d.cts) read msw's types from msw's ES module declarations.
// msw's own CommonJS declarations import `rettime`, an ES module, which TypeScript refuses in a CommonJS file
// under moduleResolution node16/nodenext with skipLibCheck off (TS1479), in every project that imports
// inr-payouts/mock. A type-only import may pick its resolution mode (TypeScript 5.3+), so this rewrites
// `import { X } from 'msw'` in each .d.cts to `import type { X } from 'msw' with { 'resolution-mode': 'import' }`.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const MSW_IMPORT = /^import (?:type )?(\{[^}]*\}) from '(msw(?:\/[\w-]+)?)';$/gm;

let rewritten = 0;
for (const file of readdirSync(dist).filter((name) => name.endsWith('.d.cts'))) {
  const path = join(dist, file);
  const text = readFileSync(path, 'utf8');
  const next = text.replace(MSW_IMPORT, (_line, names, specifier) => {
    rewritten += 1;
    return `import type ${names} from '${specifier}' with { 'resolution-mode': 'import' };`;
  });
  if (/^import .* from 'msw[^']*';$/m.test(next)) {
    throw new Error(`${file}: an msw import this script cannot rewrite; see scripts/build/msw-types.mjs`);
  }
  if (next !== text) writeFileSync(path, next);
}
if (rewritten === 0) throw new Error('no msw import found in dist/*.d.cts: is the build complete?');
console.log(`msw types: ${rewritten} import(s) in dist/*.d.cts read msw's ES module declarations`);
