/**
 * Local means local: the helpers and the pages refuse what another web site could send (a cross-site
 * origin, a rebound host name, a `text/plain` form post, a `GET` that would change state), carry framing
 * and sniffing protections, and still answer the local callers they are for.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELPER_CONTRACT, type HelperSpec } from '../../../mock/contract/helpers.js';
import { READ_HELPERS } from '../../../mock/server/guard.js';
import { listHelpers } from '../../../mock/server/helpers-api.js';
import { type RunningMockServer, startMockServer } from '../../../mock/server/server.js';
import { rawRequest } from './support.js';

let server: RunningMockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, service: { seed: 'local' } });
});
afterAll(async () => {
  await server.close();
});

const stateText = () => JSON.stringify(server.service.state);

/** A raw request, so `Host` can be anything. */
const raw = (method: string, path: string, headers: Record<string, string>, body = '') =>
  rawRequest(server.url, method, path, headers, body);

let mobiles = 9876500000;
async function createUser(): Promise<string> {
  mobiles += 1;
  const response = await fetch(`${server.url}/v2/users`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${server.service.sandboxKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ mobile: String(mobiles) }),
  });
  return ((await response.json()) as { data: { userId: string } }).data.userId;
}

describe('the helpers refuse what another site could send', () => {
  it('a request from another origin or marked cross-site is refused (403) and changes nothing', async () => {
    await createUser();
    const before = stateText();
    for (const headers of <Record<string, string>[]>[
      { Origin: 'https://evil.example' },
      { Origin: 'null' },
      { Origin: 'http://localhost:1' },
      { 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'same-site' },
    ]) {
      const answer = await fetch(`${server.url}/__mock/reset`, { method: 'POST', headers });
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(await answer.json()).toMatchObject({ error: 'Forbidden', code: 'CROSS_SITE' });
      const page = await fetch(`${server.url}/__pages/digilocker/dlk_x`, { method: 'POST', headers });
      expect(page.status).toBe(403);
    }
    expect(stateText()).toBe(before);
  });

  it('a Host that is not a loopback name on a loopback connection (a rebound DNS name) is refused', async () => {
    const before = stateText();
    const rebound = await raw('POST', '/__mock/reset', { Host: 'evil.example:4010' });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.text)).toMatchObject({ code: 'NOT_LOCAL' });
    expect(stateText()).toBe(before);
    const { port } = new URL(server.url);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `app.localhost:${port}`]) {
      expect((await raw('GET', '/__mock', { Host: host })).status, host).toBe(200);
    }
  });

  it('a form post (text/plain, urlencoded) to a helper is refused with 415 and changes nothing', async () => {
    const before = stateText();
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const answer = await fetch(`${server.url}/__mock/accounts/update`, {
        method: 'POST',
        headers: { 'Content-Type': type },
        body: '{"webhookUrl":"https://evil.example/hooks"}',
      });
      expect(answer.status, type).toBe(415);
    }
    const untyped = await raw('POST', '/__mock/reset', { Host: new URL(server.url).host }, 'x=1');
    expect(untyped.status).toBe(415);
    expect(stateText()).toBe(before);
  });

  it('GET never changes state: a helper that changes state answers 405 with Allow: POST; read helpers answer GET', async () => {
    const userId = await createUser();
    const before = stateText();
    const helpers = listHelpers(server.service);
    const names = Object.entries(helpers).flatMap(([group, actions]) =>
      actions.map((action) => (group ? `${group}.${action}` : action)),
    );
    // In-process-only helpers (a function argument, `http: false` in the contract) are not served at all.
    const served = (n: string) => (HELPER_CONTRACT as Record<string, HelperSpec>)[n]?.http !== false;
    for (const name of names.filter((n) => !READ_HELPERS.has(n) && served(n))) {
      const answer = await fetch(`${server.url}/__mock/${name.replace('.', '/')}?userId=${userId}`);
      expect(answer.status, name).toBe(405);
      expect(answer.headers.get('allow')).toBe('POST');
    }
    expect(stateText()).toBe(before);
    expect((await fetch(`${server.url}/__mock/clock/now`)).status).toBe(200);
    expect((await fetch(`${server.url}/__mock/snapshot`)).status).toBe(200);
    const put = await fetch(`${server.url}/__mock/clock/now`, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST');
  });

  it('a local caller still works: POST with JSON, POST with nothing at all, same-origin browser requests', async () => {
    const withJson = await fetch(`${server.url}/__mock/clock/advance`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
      body: '"1m"',
    });
    expect(withJson.status).toBe(200);
    const bare = await raw('POST', '/__mock/reset', { Host: new URL(server.url).host });
    expect(bare.status).toBe(200);
    const sameOrigin = await fetch(`${server.url}/__mock/reset`, {
      method: 'POST',
      headers: { Origin: server.url, 'Sec-Fetch-Site': 'same-origin' },
    });
    expect(sameOrigin.status).toBe(200);
  });
});

describe('the pages and helpers cannot be framed or sniffed', () => {
  it('pages and helper answers carry X-Frame-Options, frame-ancestors and nosniff', async () => {
    const userId = await createUser();
    const init = await fetch(`${server.url}/v2/users/${userId}/kyc/digilocker/init`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${server.service.sandboxKey}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    const { url } = ((await init.json()) as { data: { url: string } }).data;
    for (const target of [url, `${server.url}/__pages/face/none`, `${server.url}/__mock`]) {
      const answer = await fetch(target);
      expect(answer.headers.get('x-frame-options'), target).toBe('DENY');
      expect(answer.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });
});
