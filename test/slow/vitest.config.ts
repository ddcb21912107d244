/**
 * The slow tier: the standalone server held to its memory bounds over minutes (`npm run test:slow`; CI runs it
 * after `npm test`). Its files run in parallel, one per core: the 128 MB run beside the 5-minute soak.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('../../', import.meta.url)),
  test: {
    include: ['test/slow/**/*.test.ts'],
    testTimeout: 10 * 60_000,
    hookTimeout: 60_000,
  },
});
