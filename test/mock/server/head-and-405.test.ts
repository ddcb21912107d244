/**
 * HEAD is answered as GET without the body, and a method a path does not serve is 405 with `Allow`, on every
 * path the server has: the API, the OpenAPI document, the helpers, the pages and the inspector.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockServer, startMockServer } from '../../../mock/server/server.js';

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
