import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    webhooks: 'src/webhooks/index.ts',
    money: 'src/money.ts',
    mock: 'mock/index.ts',
  },
  format: ['esm', 'cjs'],
  // Separate .d.ts and .d.cts so each module format resolves its own types.
  dts: { compilerOptions: { ignoreDeprecations: '6.0' } },
  // CJS output of the ESM-only dependencies (ky, uuid) only links when tree-shaken.
  treeshake: true,
  target: 'node20',
  platform: 'neutral',
  clean: true,
  sourcemap: true,
  splitting: false,
  external: ['msw', 'msw/node', 'node:crypto', 'node:http', 'node:fs', 'node:path', 'node:url', 'node:util'],
});
