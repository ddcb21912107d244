import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig(({ mode }) => ({
  resolve: {
    alias: {
      'inr-payouts/webhooks': here('./src/webhooks/index.ts'),
      'inr-payouts/mock': here('./mock/index.ts'),
      'inr-payouts/money': here('./src/money.ts'),
      'inr-payouts': here('./src/index.ts'),
    },
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Checks every answer the mock gives in the suite against openapi.json.
    setupFiles: ['test/setup/conformance.ts'],
    // test/consumers/ are projects of their own, run against the packed package (npm run test:consumers).
    exclude: ['test/browser/**', 'test/consumers/**', 'node_modules/**'],
    testTimeout: 20_000,
    benchmark: { include: ['test/**/*.bench.ts'] },
    // `vitest bench` runs in mode 'benchmark': the summary of the performance targets after every bench file.
    globalSetup: mode === 'benchmark' ? ['test/bench/summary.ts'] : [],
  },
}));
