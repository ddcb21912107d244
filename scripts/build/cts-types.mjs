#!/usr/bin/env node
// The CommonJS declarations (dist/*.d.cts) are the ES module ones with their chunk imports pointing at the .cjs
// side: tsup made the two sets separately, and they differed only there. One declaration build instead of two
// halves the build's time and memory (`npm pack` runs it). Runs after tsup, before msw-types.mjs rewrites the
// msw and ky imports of each set.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
// A relative import of a sibling declaration chunk, named (`from './client-MQ53XLek.js'`) or bare
// (`import './payout-error-CC5PE9fC.js';`).
const CHUNK_IMPORT = /('\.\/[\w-]+)\.js'/g;

let written = 0;
for (const file of readdirSync(dist).filter((name) => name.endsWith('.d.ts'))) {
  const text = readFileSync(join(dist, file), 'utf8');
  writeFileSync(join(dist, file.replace(/\.d\.ts$/, '.d.cts')), text.replace(CHUNK_IMPORT, "$1.cjs'"));
  written += 1;
}
if (written < 4) throw new Error(`only ${written} declaration files in dist/: is the build complete?`);
console.log(`declarations: ${written} dist/*.d.cts written from the ES module ones`);
