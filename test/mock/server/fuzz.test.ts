/**
 * Property: whatever arrives at the standalone server (arbitrary paths, methods, headers and bodies, and
 * arbitrary arguments to every helper), it answers without a 5xx and without dying, and a refused request
 * (4xx) leaves the state as it was (apart from the rate-limit window, which counts every authenticated
 * request). The router-level cases (unsupported methods, HEAD, malformed percent-encoding) are in
 * `fuzz-router.test.ts`.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pipelineModule } from '../../../mock/http/pipeline-module.js';
import { modules } from '../../../mock/routes/index.js';
import { listHelpers } from '../../../mock/server/helpers-api.js';
import { type RunningMockServer, startMockServer } from '../../../mock/server/server.js';
import { stateWithoutRateWindows } from './support.js';

let server: RunningMockServer;
let userId: string;
beforeAll(async () => {
  server = await startMockServer({ port: 0, service: { seed: 'fuzz', startTime: '2025-03-01T09:00:00Z' } });
  const { data } = (await (
    await fetch(`${server.url}/__mock/users/seedVerified`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ mobile: '9876543210' }),
    })
  ).json()) as { data: { userId: string } };
  userId = data.userId;
});
afterAll(async () => {
  await server.close();
});

const stateText = () => stateWithoutRateWindows(server.service.state);

const routePaths = [pipelineModule, ...modules].flatMap((m) => m.routes.map((def) => def.path));
const segment = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'toString', '..', '.', '', 'v2', 'users', '%2F', '%00', 'null'),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);
const path = fc.oneof(
  // A route of the table with arbitrary (well-encoded) parameters, the first one sometimes a real user.
  fc
    .tuple(fc.constantFrom(...routePaths), fc.array(segment, { minLength: 4, maxLength: 4 }), fc.boolean())
    .map(([route, values, realUser]) => {
      let i = 0;
      return route.replace(/:(\w+)/g, () => {
        i += 1;
        return i === 1 && realUser ? userId : (values[i % 4] ?? '');
      });
    }),
  fc.array(segment, { maxLength: 6 }).map((parts) => `/${parts.join('/')}`),
  fc.array(segment, { maxLength: 4 }).map((parts) => `/v2/${parts.join('/')}`),
  fc.array(segment, { maxLength: 3 }).map((parts) => `/__mock/${parts.join('/')}`),
  fc.array(segment, { maxLength: 3 }).map((parts) => `/__pages/${parts.join('/')}`),
  fc.string({ maxLength: 8 }).map((id) => `/__uploads/${encodeURIComponent(id)}`),
);
const query = fc.oneof(
  fc.constant(''),
  fc
    .array(fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })), { maxLength: 3 })
    .map((pairs) => `?${new URLSearchParams(pairs).toString()}`),
  fc.constantFrom('?limit=-1', '?limit=1e309', '?__proto__=x', '?constructor[prototype][x]=1', '?page=NaN'),
);
const json = fc.jsonValue({ maxDepth: 3 });
const body = fc.oneof(
  fc.constant(undefined),
  json.map((value) => JSON.stringify(value)),
  fc.string({ maxLength: 40 }),
  fc.constantFrom('', 'null', '[]', '{', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}'),
);
const headers = fc.record(
  {
    authorization: fc.oneof(
      fc.constant('KEY'),
      fc.constantFrom('Bearer ', 'Bearer pk_sandbox_x', 'Basic abc'),
      fc.string({ maxLength: 20 }),
    ),
    'content-type': fc.constantFrom(
      'application/json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'x',
    ),
    'idempotency-key': fc.oneof(fc.uuid(), fc.string({ maxLength: 10 })),
    origin: fc.constantFrom('https://evil.example', 'null'),
    'x-forwarded-for': fc.constantFrom('203.0.113.7', '::1', 'garbage'),
  },
  { requiredKeys: [] },
);
const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE');

function headerValue(value: string): string {
  // Only what an HTTP client can send: no control characters in a header value.
  return value.replace(/[^\t\x20-\x7e]/g, '');
}

async function send(
  m: string,
  target: string,
  h: Record<string, string>,
  b: string | undefined,
): Promise<{ status: number; text: string }> {
  const sent: Record<string, string> = {};
  for (const [name, value] of Object.entries(h)) {
    sent[name] =
      name === 'authorization' && value === 'KEY'
        ? `Bearer ${server.service.sandboxKey}`
        : headerValue(value);
  }
  const response = await fetch(`${server.url}${target}`, {
    method: m,
    headers: sent,
    body: m === 'GET' ? undefined : b,
    redirect: 'manual',
  });
  return { status: response.status, text: await response.text() };
}

describe('arbitrary requests at the standalone server', () => {
  it('never answer 5xx, never crash it, and a refused one changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(method, path, query, headers, body, async (m, p, q, h, b) => {
        const before = stateText();
        const answer = await send(m, `${p}${q}`, h, b);
        const label = `${m} ${p}${q} ${JSON.stringify(h)} ${JSON.stringify(b)} → ${answer.status} ${answer.text.slice(0, 200)}`;
        expect(answer.status, label).toBeLessThan(500);
        if (answer.status >= 400) expect(stateText(), label).toBe(before);
      }),
      { numRuns: 400 },
    );
    expect((await send('GET', '/v2/account', { authorization: 'KEY' }, undefined)).status).toBe(200);
  });

  it('every helper with arbitrary arguments: no 5xx, and a refusal changes nothing', async () => {
    const names = Object.entries(listHelpers(server.service)).flatMap(([group, actions]) =>
      actions.map((action) => (group ? `${group}/${action}` : action)),
    );
    const argument = fc.oneof(
      json,
      fc.record({
        userId: fc.constantFrom(userId, '__proto__', ''),
        channel: fc.constantFrom('mobile', 'email', 1),
      }),
      fc.record({ args: fc.array(json, { maxLength: 3 }) }),
      fc.constantFrom(1e16, -1, '1e16h', '9999999999d', null, { version: 1 }, { accountId: '__proto__' }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...names.filter((n) => n !== 'webhooks/useFetch')),
        argument,
        async (name, arg) => {
          const before = stateText();
          const answer = await send(
            'POST',
            `/__mock/${name}`,
            { 'content-type': 'application/json' },
            JSON.stringify(arg),
          );
          const label = `${name}(${JSON.stringify(arg)?.slice(0, 80)}) → ${answer.status} ${answer.text.slice(0, 200)}`;
          expect(answer.status, label).toBeLessThan(500);
          if (answer.status >= 400) expect(stateText(), label).toBe(before);
          // Whatever a helper accepted, the server still answers the API.
          const alive = await send('GET', '/v2/account', { authorization: 'KEY' }, undefined);
          expect([200, 403, 429], label).toContain(alive.status);
        },
      ),
      { numRuns: 300 },
    );
  });
});
