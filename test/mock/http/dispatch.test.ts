/**
 * Property, router level: any method (including TRACE, OPTIONS, HEAD and unknown ones) and any path with
 * malformed percent-encoding, at any route of the table, answers without a 5xx: an unsupported method 405
 * with `Allow`, `HEAD` like `GET` without a body, a malformed encoding 400. A refused request changes
 * nothing.
 */
import { request } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pipelineModule } from '../../../mock/http/pipeline-module.js';
import { modules } from '../../../mock/routes/index.js';
import { type RunningMockServer, startMockServer } from '../../../mock/server/server.js';

let server: RunningMockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, service: { seed: 'fuzz-router' } });
});
afterAll(async () => {
  await server.close();
});

const routePaths = [pipelineModule, ...modules].flatMap((m) => m.routes.map((def) => def.path));
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

/** node:http, not fetch: fetch refuses to send TRACE at all, and the server must meet it anyway. */
function send(method: string, path: string): Promise<{ status: number; allow?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${server.service.sandboxKey}` },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => {
        const allow = res.headers.allow;
        resolve({ status: res.statusCode ?? 0, allow, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('router-level requests', () => {
  it('never answer 5xx: unsupported methods 405 with Allow, HEAD like GET, malformed encoding 400', async () => {
    await fc.assert(
      fc.asyncProperty(method, path, async (m, p) => {
        const before = JSON.stringify(server.service.state.transactions);
        const response = await send(m, p);
        const label = `${m} ${p} → ${response.status}`;
        expect(response.status, label).toBeLessThan(500);
        if (response.status === 405) expect(response.allow, label).toBeTruthy();
        if (m === 'HEAD') expect(response.body, label).toBe('');
        expect(JSON.stringify(server.service.state.transactions), label).toBe(before);
      }),
      { numRuns: 300 },
    );
  });
});
