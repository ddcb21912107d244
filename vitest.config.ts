import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import type {} from './test/setup/strict-profile-context.js';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * The client's integration tests against the mock, run a second time against its strict profile (the `strict`
 * project, test/setup/strict-profile.ts): the client must be correct without the mock's own additions.
 */
const STRICT_PROFILE_FILES = ['test/index.test.ts', 'test/mock/http/client-clock.test.ts'];
/** The same, for the slow tier's fault-injection run. */
const STRICT_PROFILE_SLOW_FILES = ['test/slow/fault-injection.test.ts'];

/**
 * `npm test` runs the default and strict projects. `npm run test:slow` (`--mode slow`; CI runs it after `npm test`)
 * runs the slow tier, `test/slow/`: the long runs (100,000 requests, seeded chaos, 1,000 creates under faults),
 * with the same conformance hook and strict profile as the suite, and the standalone server held to its memory
 * bounds for minutes.
 */
const strictProject = (name: string, include: string[]) => ({
  extends: true as const,
  test: {
    name,
    include,
    setupFiles: ['test/setup/strict-profile.ts'],
    provide: { mockProfile: 'strict' as const },
  },
});

export default defineConfig(({ mode }) => ({
  resolve: {
    alias: {
      'inr-payouts/webhooks/handler': here('./src/webhooks/handler/index.ts'),
      'inr-payouts/webhooks': here('./src/webhooks/index.ts'),
      'inr-payouts/otel': here('./src/otel/index.ts'),
      // Before 'inr-payouts/mock', which would also match its subpath.
      'inr-payouts/mock/msw': here('./mock/msw/index.ts'),
      'inr-payouts/mock': here('./mock/index.ts'),
      'inr-payouts/money': here('./src/money.ts'),
      'inr-payouts': here('./src/index.ts'),
    },
  },
  test: {
    // A table's row (`it.each`) keeps its whole title, and a failed assertion shows the whole value.
    chaiConfig: { truncateThreshold: 0 },
    // Arrays here are merged into each project's (`extends: true`), so `include` is per project.
    projects:
      mode === 'slow'
        ? [
            {
              extends: true,
              test: {
                name: 'slow',
                include: ['test/slow/**/*.test.ts'],
                provide: { mockProfile: 'default' as const },
                testTimeout: 10 * 60_000,
                hookTimeout: 60_000,
              },
            },
            strictProject('slow-strict', STRICT_PROFILE_SLOW_FILES),
          ]
        : [
            {
              extends: true,
              test: {
                name: 'default',
                include: ['test/**/*.test.ts'],
                exclude: ['test/slow/**'],
                provide: { mockProfile: 'default' as const },
              },
            },
            ...(mode === 'benchmark' ? [] : [strictProject('strict', STRICT_PROFILE_FILES)]),
          ],
    // Checks every answer the mock gives in the suite against openapi.json; not in benchmarks, which measure the
    // mock as a partner runs it (the check copies and validates every answer).
    setupFiles: mode === 'benchmark' ? [] : ['test/setup/conformance.ts'],
    // test/consumers/ are projects of their own, run against the packed package (npm run test:consumers).
    exclude: ['test/browser/**', 'test/consumers/**', 'node_modules/**'],
    testTimeout: 20_000,
    benchmark: { include: ['test/**/*.bench.ts'] },
    // `vitest bench` runs in mode 'benchmark': the summary of the performance targets after every bench file.
    globalSetup: mode === 'benchmark' ? ['test/bench/summary.ts'] : [],
    // One file per core. vitest's default keeps a core for its main process (cores - 1), which on a 2-core
    // machine runs the files one at a time; the main process is mostly idle, and many files wait on servers and
    // child processes. Worker threads start a file faster than forked processes (115 s against 141 s for
    // npm test on 2 cores); benchmarks keep the default forks they were measured with.
    maxWorkers: availableParallelism(),
    pool: mode === 'benchmark' ? 'forks' : 'threads',
    // Bench files one at a time: a rate (lifecycles per second) measured beside another file's bench on the same
    // cores is that file's load, not ours. Tests keep running files in parallel.
    fileParallelism: mode !== 'benchmark',
  },
}));
