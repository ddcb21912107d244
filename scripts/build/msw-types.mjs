#!/usr/bin/env node
// After tsup, two rewrites of the declarations' imports of the packages the types name:
// - msw (`mock.handlers`, an optional peer dependency), in dist/mock.d.ts and .d.cts. The import resolves as the
//   partner's own `import ... from 'msw/node'` does (no `resolution-mode` of its own), so
//   `setupServer(...mock.handlers)` meets the same msw class declarations in a CommonJS file (msw's CommonJS
//   types) and in an ES module (its ESM types); forcing one mode made them two classes (TS2345, "'resolver' is
//   protected"). It is marked `@ts-ignore`, so a project without msw (mock.fetch, Jest's default set-up,
//   node:test) type-checks every other export with skipLibCheck off: `handlers` is then untyped, and unusable.
// - ky (the client's `hooks` option has ky's types), in dist/*.d.cts. ky is ES-module-only: TypeScript refuses
//   its import in a CommonJS file under moduleResolution node16/nodenext with skipLibCheck off (TS1479). A
//   type-only import may pick its resolution mode (TypeScript 5.3+), so it becomes
//   `import type { X } from 'ky' with { 'resolution-mode': 'import' }`; the bare `import 'ky';` tsup leaves goes.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const MSW_IMPORT = /^import (?:type )?(\{[^}]*\}) from '(msw(?:\/[\w-]+)?)';$/gm;
const KY_IMPORT = /^import (?:type )?(\{[^}]*\}) from '(ky)';$/gm;
const BARE_IMPORT = /^import '(?:msw|ky)(?:\/[\w-]+)?';\n/gm;
const MARK = '// @ts-ignore msw is an optional peer dependency: without it, only `mock.handlers` is untyped.';

let msw = 0;
let ky = 0;
for (const file of readdirSync(dist).filter((name) => /\.d\.c?ts$/.test(name))) {
  const path = join(dist, file);
  const text = readFileSync(path, 'utf8');
  let next = text.replace(BARE_IMPORT, '').replace(MSW_IMPORT, (_line, names, specifier) => {
    msw += 1;
    return `${MARK}\nimport type ${names} from '${specifier}';`;
  });
  if (file.endsWith('.d.cts')) {
    next = next.replace(KY_IMPORT, (_line, names, specifier) => {
      ky += 1;
      return `import type ${names} from '${specifier}' with { 'resolution-mode': 'import' };`;
    });
    if (/^import .* from 'ky[^']*';$/m.test(next)) {
      throw new Error(`${file}: a ky import this script cannot rewrite; see scripts/build/msw-types.mjs`);
    }
  }
  if (next !== text) writeFileSync(path, next);
}
if (msw !== 2) {
  throw new Error(
    `expected one msw import in each of dist/mock.d.ts and dist/mock.d.cts, rewrote ${msw}: ` +
      'is the build complete, or does another declaration file import msw now? See scripts/build/msw-types.mjs',
  );
}
if (ky === 0) throw new Error('no ky import found in dist/*.d.cts: is the build complete?');
console.log(
  `declarations: the msw import of dist/mock.d.ts and .d.cts resolves as the partner's, optional; ` +
    `${ky} ky import(s) in dist/*.d.cts read its ES module declarations`,
);
