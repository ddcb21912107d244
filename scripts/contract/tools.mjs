// The contract tools nobody here wrote (Redocly, Spectral, Portman, Newman, Prism, @hey-api/openapi-ts),
// installed on first use into .contract-tools/ (git-ignored), never as dev dependencies: they are large and only
// CI's contract steps need them. Prism and openapi-ts refuse Node 20: they run under Node 24, the toolchain's, or
// the one scripts/runtimes/ installs into .runtimes/ when a script runs on an older Node (installed here too).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ensureNodeLines, nodeBinary } from '../runtimes/node-lines.mjs';
import { installInto, root } from '../support.mjs';

const prefix = join(root, '.contract-tools');

/** The tools, pinned by major version. */
const PACKAGES = [
  '@redocly/cli@2',
  '@stoplight/spectral-cli@6',
  '@apideck/portman@1',
  'newman@6',
  '@stoplight/prism-cli@5',
  '@hey-api/openapi-ts@0.99',
  // openapi-ts needs TypeScript beside it; 7 is not one it runs with yet.
  'typescript@~6.0',
];

/** Installs what is missing; returns the path of a tool's executable. */
export function ensureTools() {
  if (!PACKAGES.every((p) => existsSync(join(prefix, 'node_modules', p.replace(/@[^@/]+$/, '')))))
    installInto(prefix, PACKAGES);
  ensureNodeLines([24]);
  return (name) => join(prefix, 'node_modules/.bin', name);
}

/** Environment for a tool that needs Node 24 (Prism and openapi-ts refuse Node 20): its `bin/` first on PATH. */
export function node24Env() {
  return { ...process.env, PATH: `${dirname(nodeBinary(24))}:${process.env.PATH}` };
}
