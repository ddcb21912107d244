import type { Plugin } from 'esbuild';
import { defineConfig, type Options } from 'tsup';

// The mock's `createClient` builds the package's own `PayoutClient`: in the CommonJS build, resolve its import of the
// client entry to `inr-payouts` itself, so a partner's `instanceof` checks against the client's errors hold for that
// client too. The ES build shares one chunk between the entries instead.
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
  target: 'node22',
  platform: 'neutral',
  // `npm run build` empties dist/ first: tsup builds every config at once, so none may clean.
  clean: false,
  sourcemap: true,
  splitting: false,
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

// rou3 (the mock's router) is a dev dependency, so it ships inside both builds. zod/mini and uuid ship inside too,
// tree-shaken to what the package uses: one module to read instead of zod's graph of ~100 files and uuid's ~25 (its
// import was 30 ms) is most of a cold import. Types still name `zod/mini`. zod's full build (`zod`, whose
// `fromJSONSchema` reads the contract conformance checks) stays the dependency's, loaded only by a conformance run:
// inlined, the zod core it shares with zod/mini would move whole into the chunk every import loads (88 KB more).
const inlinedEverywhere = [/^rou3(\/|$)/, /^zod\//, /^uuid(\/|$)/];

export default defineConfig([
  {
    ...library,
    // ky is a dependency: the ES build imports it from node_modules, where npm ls and npm audit see it, and only
    // on a client's first request (src/core/transport.ts). The client and the mock share chunks: the mock's
    // client, schemas and zod are the client's own, loaded once. The declarations are built on their own
    // (tsup.types.config.ts).
    entry: { index: library.entry.index, mock: library.entry.mock },
    format: ['esm'],
    splitting: true,
    noExternal: inlinedEverywhere,
  },
  {
    ...library,
    // The other entries, one file each: each chunk shared with the client and the mock is one more module for
    // Node to resolve and read (the webhooks entry took 5).
    entry: Object.fromEntries(
      Object.entries(library.entry).filter(([name]) => name !== 'index' && name !== 'mock'),
    ),
    format: ['esm'],
    noExternal: inlinedEverywhere,
  },
  {
    ...library,
    // ky is ES-module-only, and a CommonJS caller (Jest's default set-up, `require`) cannot load such a
    // package: the CommonJS build carries it inside. Its .d.cts read ky's types as an ES module
    // (scripts/build/msw-types.mjs). The .d.cts are the ES build's declarations, copied by scripts/build/cts-types.mjs:
    // a second declaration build took as long as the rest of the build.
    format: ['cjs'],
    esbuildPlugins: [clientFromPackage],
    noExternal: [...inlinedEverywhere, /^ky(\/|$)/],
  },
  {
    // The standalone mock server runs on Node only, as an executable.
    entry: { 'bin/mock-server': 'mock/bin/mock-server.ts' },
    format: ['esm'],
    platform: 'node',
    target: 'node22',
    banner: { js: '#!/usr/bin/env node' },
    // One file to load: resolving and compiling zod's module graph file by file was half the start-up. zod's
    // full build is loaded from the dependency by a conformance run only, as in the library. The server's fetch
    // adapter, @hono/node-server, is a dev dependency and ships inside, with the one helper it takes from its
    // peer hono (`hono/ws`, for WebSockets the mock never serves): the bin imports neither.
    noExternal: [/^zod\//, /^(decimal\.js|rou3|@hono\/node-server|hono)(\/|$)/],
    treeshake: true,
    splitting: false,
    sourcemap: true,
    clean: false,
  },
]);
