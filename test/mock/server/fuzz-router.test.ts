/**
 * Property, router level: any method (including TRACE, OPTIONS, HEAD and unknown ones) and any path with
 * malformed percent-encoding, at any route of the table, answers without a 5xx: an unsupported method 405
 * with `Allow`, `HEAD` like `GET` without a body, a malformed encoding 400. A refused request changes
 * nothing.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coreModule } from '../../../mock/core/core-module.js';
import { modules } from '../../../mock/handlers/index.js';
import { type RunningMockServer, startMockServer } from '../../../mock/server/server.js';

let server: RunningMockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, service: { seed: 'fuzz-router' } });
});
afterAll(async () => {
  await server.close();
});

const routePaths = [coreModule, ...modules].flatMap((m) => m.routes.map((def) => def.path));
const malformed = fc.constantFrom('%ZZ', '%', '%E0%A4%A', '%C0%AF', 'a%2', '%%', '%u0041');
const path = fc
  .tuple(
    fc.constantFrom(...routePaths, '/__mock/otp/read', '/__pages/face/x', '/__uploads/x'),
    malformed,
    fc.boolean(),
  )
  .map(([route, bad, inParam]) =>
    inParam && route.includes(':')
      ? route.replace(/:(\w+)/, bad)
      : route.replace(/:(\w+)/g, 'x') + (inParam ? '' : `/${bad}`),
  );
const method = fc.constantFrom(
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'TRACE',
  'PROPFIND',
);

describe('router-level requests', () => {
  it('never answer 5xx: unsupported methods 405 with Allow, HEAD like GET, malformed encoding 400', async () => {
    await fc.assert(
      fc.asyncProperty(method, path, async (m, p) => {
        const before = JSON.stringify(server.service.state.transactions);
        const response = await fetch(`${server.url}${p}`, {
          method: m,
          headers: { Authorization: `Bearer ${server.service.sandboxKey}` },
        });
        const label = `${m} ${p} → ${response.status}`;
        expect(response.status, label).toBeLessThan(500);
        if (response.status === 405) expect(response.headers.get('allow'), label).toBeTruthy();
        if (m === 'HEAD') expect(await response.text(), label).toBe('');
        expect(JSON.stringify(server.service.state.transactions), label).toBe(before);
      }),
      { numRuns: 300 },
    );
  });
});
