import { request } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pipelineModule } from '../../../mock/http/pipeline-module.js';
import { modules } from '../../../mock/routes/index.js';
import { type RunningMockServer, startMockServer } from '../../../mock/server/server.js';

/**
 * Property, router level: any method (including TRACE, OPTIONS, HEAD and unknown ones) and any path with
 * malformed percent-encoding, at any route of the table, answers without a 5xx: an unsupported method 405
 * with `Allow`, `HEAD` like `GET` without a body, a malformed encoding 400. A refused request changes
 * nothing.
 */

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

describe('HEAD and 405 at the standalone server', () => {
  /**
   * HEAD is answered as GET without the body, and a method a path does not serve is 405 with `Allow`, on every
   * path the server has: the API, the OpenAPI document, the helpers, the pages and the inspector.
   */

  let server: RunningMockServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0 });
  });
  afterAll(() => server.close());

  const send = (method: string, path: string) => fetch(`${server.url}${path}`, { method });

  describe('HEAD answers as GET without the body', () => {
    it.each([
      '/openapi.json',
      '/__mock',
      '/__mock/journal',
      '/__mock/clock/now',
      '/__pages/inspector',
      '/__pages/face/no-such-session',
      '/v2/account',
    ])('HEAD %s', async (path) => {
      const get = await send('GET', path);
      const getBody = new Uint8Array(await get.arrayBuffer());
      const head = await send('HEAD', path);
      expect(head.status).toBe(get.status);
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
      expect((await head.arrayBuffer()).byteLength).toBe(0);
      // The inspector's page differs from one GET to the next (its nonce, its clock line): its length is its own.
      if (path !== '/__pages/inspector')
        expect(head.headers.get('content-length')).toBe(String(getBody.byteLength));
    });
  });

  describe('a method a path does not serve is 405 with Allow', () => {
    it.each([
      ['POST', '/openapi.json', 'GET, HEAD'],
      ['DELETE', '/openapi.json', 'GET, HEAD'],
      ['PUT', '/__mock', 'GET, HEAD'],
      ['POST', '/__mock', 'GET, HEAD'],
      ['DELETE', '/__mock/journal', 'GET, HEAD, POST'],
      ['HEAD', '/__mock/reset', 'POST'],
      ['PATCH', '/__pages/face/any', 'GET, HEAD, POST'],
      ['POST', '/__pages/inspector', 'GET, HEAD'],
      ['DELETE', '/v2/users', 'POST'],
    ])('%s %s', async (method, path, allow) => {
      const answer = await send(method, path);
      expect(answer.status).toBe(405);
      expect(answer.headers.get('allow')).toBe(allow);
    });

    it('a refused method changes nothing: POST /__mock is not a helper call', async () => {
      const before = await (await send('GET', '/__mock/snapshot')).text();
      await send('POST', '/__mock');
      expect(await (await send('GET', '/__mock/snapshot')).text()).toBe(before);
    });
  });
});
