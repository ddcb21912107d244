/**
 * The strict test projects (vitest.config.ts: `strict`, and `slow-strict` in the slow tier): every
 * `createMockService` of the client's integration tests answers in the strict profile, exactly what the spec shows
 * and none of the mock's additions (docs/mock-only.md), so those tests prove the client does not depend on them.
 */
import { vi } from 'vitest';
import './strict-profile-context.js';

vi.mock('../../mock/index.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../mock/index.js')>();
  return {
    ...actual,
    createMockService: (options: Parameters<typeof actual.createMockService>[0] = {}) =>
      actual.createMockService({ profile: 'strict', ...options }),
  };
});
