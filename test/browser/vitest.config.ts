/**
 * The browser tests: real headless Chromium (Debian's `chromium`, driven by playwright-core) against the
 * real mock server process. Run with `vitest run --config test/browser/vitest.config.ts`.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('../../', import.meta.url)),
  test: {
    include: ['test/browser/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
