import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROTECTIVE_HEADERS } from '../../../../mock/server/guard.js';
import { INSPECTOR_PATH } from '../../../../mock/server/inspector/index.js';
import { type RunningMockServer, startMockServer } from '../../../../mock/server/server.js';
import { rawRequest } from '../support.js';

/**
 * The inspector page's rendering, without a browser: what partners sent shows as text (never as markup or
 * script), "copy as curl" quotes for the shell, the filters and the state machine read the state, and the page
 * sits behind the same local-only guard and framing protections as the other pages.
 */

describe('served by the standalone server, local only', () => {
  let server: RunningMockServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0, service: { seed: 'inspector-local' } });
  });
  afterAll(async () => {
    await server.close();
  });

  const raw = (path: string, headers: Record<string, string>, method = 'GET') =>
    rawRequest(server.url, method, path, headers);

  it('answers a local GET with the pages’ protections, its own policy keeping frame-ancestors none', async () => {
    const response = await fetch(`${server.url}${INSPECTOR_PATH}`);
    expect(response.status).toBe(200);
    for (const [name, value] of Object.entries(PROTECTIVE_HEADERS)) {
      if (name === 'content-security-policy') continue;
      expect(response.headers.get(name), name).toBe(value);
    }
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(await response.text()).toContain('<h2 id="timeline-title">Timeline</h2>');
  });

  it('refuses another site, a rebound host name and a method that is not a read', async () => {
    const host = new URL(server.url).host;
    const refused: Record<string, string>[] = [
      { Host: host, 'Sec-Fetch-Site': 'cross-site' },
      { Host: host, Origin: 'https://evil.example' },
      { Host: `evil.example:${new URL(server.url).port}` },
    ];
    for (const headers of refused) {
      const answer = await raw(INSPECTOR_PATH, headers);
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(answer.text).not.toContain('Timeline');
    }
    const posted = await raw(INSPECTOR_PATH, { Host: host }, 'POST');
    expect(posted.status).toBe(405);
    expect(posted.headers.allow).toBe('GET, HEAD');
  });
});
