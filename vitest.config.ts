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
    // Checks every answer the mock gives in the suite against openapi.json; not in benchmarks, which measure the
    // mock as a partner runs it (the check copies and validates every answer).
    setupFiles: mode === 'benchmark' ? [] : ['test/setup/conformance.ts'],
    // test/consumers/ are projects of their own, run against the packed package (npm run test:consumers).
    // test/slow/ is the slow tier (npm run test:slow): the server held to its memory bounds for minutes.
    exclude: ['test/browser/**', 'test/consumers/**', 'test/slow/**', 'node_modules/**'],
    testTimeout: 20_000,
    benchmark: { include: ['test/**/*.bench.ts'] },
    // `vitest bench` runs in mode 'benchmark': the summary of the performance targets after every bench file.
    globalSetup: mode === 'benchmark' ? ['test/bench/summary.ts'] : [],
    // Bench files one at a time: a rate (lifecycles per second) measured beside another file's bench on the same
    // cores is that file's load, not ours. Tests keep running files in parallel.
    fileParallelism: mode !== 'benchmark',
  },
}));
