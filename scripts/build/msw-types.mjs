#!/usr/bin/env node
// After tsup, the declarations' imports of the packages the types name:
// - msw (an optional peer dependency) is named only by dist/mock-msw.d.ts and .d.cts (`inr-payouts/mock/msw`,
//   imported only where msw is installed); checked, not rewritten: the import resolves as the partner's own
//   `import ... from 'msw/node'` does (no `resolution-mode` of its own), so `setupServer(...mswHandlers(mock))`
//   meets the same msw class declarations in a CommonJS file and in an ES module (forcing one mode made them two
//   classes: TS2345, "'resolver' is protected"). Any other declaration naming msw fails the build: a project
//   without msw must type-check `inr-payouts/mock` with skipLibCheck off.
// - ky (the client's `hooks` option has ky's types), in dist/*.d.cts. ky is ES-module-only: TypeScript refuses
//   its import in a CommonJS file under moduleResolution node16/nodenext with skipLibCheck off (TS1479). A
//   type-only import may pick its resolution mode (TypeScript 5.3+), so it becomes
//   `import type { X } from 'ky' with { 'resolution-mode': 'import' }`; the bare `import 'ky';` tsup leaves goes.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const MSW_IMPORT = /^import .* from 'msw(?:\/[\w-]+)?';$/m;
const MSW_ENTRY = /^mock-msw\.d\.c?ts$/;
const KY_IMPORT = /^import (?:type )?(\{[^}]*\}) from '(ky)';$/gm;
const BARE_IMPORT = /^import '(?:msw|ky)(?:\/[\w-]+)?';\n/gm;

let msw = 0;
let ky = 0;
for (const file of readdirSync(dist).filter((name) => /\.d\.c?ts$/.test(name))) {
  const path = join(dist, file);
  const text = readFileSync(path, 'utf8');
  let next = text.replace(BARE_IMPORT, '');
  if (MSW_IMPORT.test(next)) {
    if (!MSW_ENTRY.test(file)) {
      throw new Error(`${file} imports msw: only inr-payouts/mock/msw may (scripts/build/msw-types.mjs)`);
    }
    msw += 1;
  }
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
    `expected msw imported by dist/mock-msw.d.ts and dist/mock-msw.d.cts, found it in ${msw}: ` +
      'is the build complete? See scripts/build/msw-types.mjs',
  );
}
if (ky === 0) throw new Error('no ky import found in dist/*.d.cts: is the build complete?');
console.log(
  "declarations: msw is named by dist/mock-msw.d.ts and .d.cts only, resolved as the partner's; " +
    `${ky} ky import(s) in dist/*.d.cts read its ES module declarations`,
);
