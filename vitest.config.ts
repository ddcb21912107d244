import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import type {} from './test/setup/strict-profile-context.js';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * The client's integration tests against the mock, run a second time against its strict profile (the `strict`
 * project, test/setup/strict-profile.ts): the client must be correct without the mock's own additions.
 */
const STRICT_PROFILE_FILES = [
  'test/resources/against-mock.test.ts',
  'test/mock/create-client.test.ts',
  'test/mock/core/client-clock.test.ts',
  'test/reliability/fault-injection.test.ts',
];

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
    // Arrays here are merged into each project's (`extends: true`), so `include` is per project.
    projects: [
      {
        extends: true,
        test: {
          name: 'default',
          include: ['test/**/*.test.ts'],
          provide: { mockProfile: 'default' as const },
        },
      },
      ...(mode === 'benchmark'
        ? []
        : [
            {
              extends: true as const,
              test: {
                name: 'strict',
                include: STRICT_PROFILE_FILES,
                setupFiles: ['test/setup/strict-profile.ts'],
                provide: { mockProfile: 'strict' as const },
              },
            },
          ]),
    ],
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
