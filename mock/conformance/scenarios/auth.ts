/**
 * Authentication (spec 5): a missing and an invalid key answer 401 `Unauthorized` with its message, on an
 * endpoint answering errors in shape A and on one answering shape B (spec 7.1).
 */
import type { Scenario, ScenarioTarget } from '../types.js';

async function withKey(
  t: ScenarioTarget,
  path: string,
  method: string,
  authorization?: string,
): Promise<void> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (authorization !== undefined) headers.authorization = authorization;
  await t.fetch(`${t.baseUrl}${path}`, { method, headers, ...(method === 'GET' ? {} : { body: '{}' }) });
}

// A shape A endpoint (the account) and a shape B one (bank verification, spec 7.4 lists its errors in words).
const ENDPOINTS = [
  ['GET', '/v2/account'],
  ['GET', '/v2/account/credit'],
  ['POST', '/v2/users/usr_conformance_none/kyc/bank/verify'],
] as const;

/** The authentication scenarios. */
export const AUTH_SCENARIOS: Scenario[] = [
  {
    id: 'auth.missing-key',
    title: 'No Authorization header answers 401 Unauthorized',
    spec: '5.4, 7.2',
    tier: 'read-only',
    async run(t) {
      for (const [method, path] of ENDPOINTS) await withKey(t, path, method);
    },
  },
  {
    id: 'auth.invalid-key',
    title: 'A key the service never issued answers 401 Unauthorized',
    spec: '5.4, 7.2',
    tier: 'read-only',
    async run(t) {
      for (const [method, path] of ENDPOINTS) {
        await withKey(t, path, method, 'Bearer pk_sandbox_conformance_not_a_key');
      }
      await withKey(t, '/v2/account', 'GET', 'Basic Y29uZm9ybWFuY2U6eA==');
    },
  },
];
