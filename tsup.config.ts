import type { Plugin } from 'esbuild';
import { defineConfig, type Options } from 'tsup';

// The mock's `createClient` builds the package's own `PayoutClient`: resolve its import of the client entry to
// `inr-payouts` itself, so a partner's `instanceof` checks against the client's errors hold for that client too.
const clientFromPackage: Plugin = {
  name: 'client-from-package',
  setup(build) {
    build.onResolve({ filter: /\/src\/index\.js$/ }, ({ importer }) =>
      /[\\/]mock[\\/]/.test(importer) ? { path: 'inr-payouts', external: true } : undefined,
    );
  },
};

// msw for `mock.handlers`: the ES module build imports it when the entry loads, if installed (mock/msw/load.ts,
// a top-level await, so the handlers share the partner's msw module); the CommonJS build cannot await at the
// top, and requires it on first use instead (load.cjs.ts), so a CommonJS project without msw loads the mock.
const mswLoaderForCommonJs: Plugin = {
  name: 'msw-loader-for-commonjs',
  setup(build) {
    build.onResolve({ filter: /^\.\/load\.js$/ }, ({ importer, resolveDir }) =>
      /[\\/]mock[\\/]msw[\\/]/.test(importer) ? { path: `${resolveDir}/load.cjs.ts` } : undefined,
    );
  },
};

/** The library entries; built once as ES modules and once as CommonJS, which differ only in what they inline. */
export const library = {
  entry: {
    index: 'src/index.ts',
    webhooks: 'src/webhooks/index.ts',
    money: 'src/money.ts',
    mock: 'mock/index.ts',
  },
  treeshake: true,
  target: 'node20',
  platform: 'neutral',
  // `npm run build` empties dist/ first: tsup builds every config at once, so none may clean.
  clean: false,
  sourcemap: true,
  splitting: false,
  esbuildPlugins: [clientFromPackage],
  external: ['msw', 'msw/node', 'node:crypto', 'node:http', 'node:fs', 'node:path', 'node:url', 'node:util'],
} satisfies Options;

// rou3 (the mock's router) is a dev dependency, so it ships inside both builds. zod/mini ships inside too,
// tree-shaken to what the schemas use: one module to read instead of zod's graph of ~100 files is most of the
// client's cold import. Types still name `zod/mini`.
const inlinedEverywhere = [/^rou3(\/|$)/, /^zod(\/|$)/];

export default defineConfig([
  {
    ...library,
    // ky and uuid are dependencies: the ES build imports them from node_modules, where npm ls and npm audit see them.
    // The declarations are built on their own, after this (tsup.types.config.ts).
    format: ['esm'],
    noExternal: inlinedEverywhere,
  },
  {
    ...library,
    // ky and uuid are ES-module-only, and a CommonJS caller (Jest's default set-up, `require`) cannot load such a
    // package: the CommonJS build carries them inside. Its .d.cts read ky's types as an ES module
    // (scripts/build/msw-types.mjs). The .d.cts are the ES build's declarations, copied by scripts/build/cts-types.mjs:
    // a second declaration build took as long as the rest of the build.
    format: ['cjs'],
    noExternal: [...inlinedEverywhere, /^ky(\/|$)/, /^uuid(\/|$)/],
    esbuildPlugins: [clientFromPackage, mswLoaderForCommonJs],
  },
  {
    // The standalone mock server runs on Node only, as an executable.
    entry: { 'bin/mock-server': 'mock/bin/mock-server.ts' },
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    external: ['msw', 'msw/node'],
    // One file to load: resolving and compiling zod's module graph file by file was half the start-up.
    noExternal: [/^(zod|decimal\.js|rou3)(\/|$)/],
    treeshake: true,
    splitting: false,
    sourcemap: true,
    clean: false,
  },
]);
