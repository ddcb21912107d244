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

/** The library entries; built once as ES modules and once as CommonJS, which differ only in what they inline. */
export const library = {
  entry: {
    index: 'src/index.ts',
    webhooks: 'src/webhooks/index.ts',
    // The handler and its stores, apart from the verifier's 4 KB budget; OpenTelemetry, apart from everything.
    'webhooks-handler': 'src/webhooks/handler/index.ts',
    otel: 'src/otel/index.ts',
    money: 'src/money.ts',
    mock: 'mock/index.ts',
    // msw's handlers, an entry of its own: `inr-payouts/mock` never imports msw, only this does.
    'mock-msw': 'mock/msw/index.ts',
  },
  treeshake: true,
  target: 'node20',
  platform: 'neutral',
  // `npm run build` empties dist/ first: tsup builds every config at once, so none may clean.
  clean: false,
  sourcemap: true,
  splitting: false,
  esbuildPlugins: [clientFromPackage],
  external: [
    'msw',
    'msw/node',
    '@opentelemetry/api',
    'node:crypto',
    'node:http',
    'node:fs',
    'node:path',
    'node:url',
    'node:util',
  ],
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
  },
  {
    // The standalone mock server runs on Node only, as an executable.
    entry: { 'bin/mock-server': 'mock/bin/mock-server.ts' },
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    // One file to load: resolving and compiling zod's module graph file by file was half the start-up.
    noExternal: [/^(zod|decimal\.js|rou3)(\/|$)/],
    treeshake: true,
    splitting: false,
    sourcemap: true,
    clean: false,
  },
]);
