import type { Plugin } from 'esbuild';
import { defineConfig } from 'tsup';

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
// tsup hands esbuild `format: 'esm'` for both builds when it tree-shakes (rollup writes the CommonJS), so the
// format reaches the plugin as a define set in `esbuildOptions`.
const FORMAT_MARK = '__INR_PAYOUTS_BUILD_FORMAT__';
const mswLoaderPerFormat: Plugin = {
  name: 'msw-loader-per-format',
  setup(build) {
    if (build.initialOptions.define?.[FORMAT_MARK] !== '"cjs"') return;
    build.onResolve({ filter: /^\.\/load\.js$/ }, ({ importer, resolveDir }) =>
      /[\\/]mock[\\/]msw[\\/]/.test(importer) ? { path: `${resolveDir}/load.cjs.ts` } : undefined,
    );
  },
};

export default defineConfig([
  {
    entry: {
      index: 'src/index.ts',
      webhooks: 'src/webhooks/index.ts',
      money: 'src/money.ts',
      mock: 'mock/index.ts',
    },
    format: ['esm', 'cjs'],
    // Separate .d.ts and .d.cts so each module format resolves its own types.
    dts: { compilerOptions: { ignoreDeprecations: '6.0' } },
    // uuid and rou3 (the mock's router) are ESM-only, so a CommonJS caller (Jest's default set-up, `require`)
    // could not load them: they ship inside both builds. zod/mini ships inside too, tree-shaken to what the schemas use: one module to read
    // instead of zod's graph of ~100 files is most of the client's cold import. Types still name `zod/mini`.
    noExternal: ['uuid', /^rou3(\/|$)/, /^zod(\/|$)/],
    treeshake: true,
    target: 'node20',
    platform: 'neutral',
    // `npm run build` empties dist/ first: tsup builds both configs at once, so neither may clean.
    clean: false,
    sourcemap: true,
    splitting: false,
    esbuildPlugins: [clientFromPackage, mswLoaderPerFormat],
    esbuildOptions(options, { format }) {
      options.define = { ...options.define, [FORMAT_MARK]: JSON.stringify(format) };
    },
    external: [
      'msw',
      'msw/node',
      'node:crypto',
      'node:http',
      'node:fs',
      'node:path',
      'node:url',
      'node:util',
    ],
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
