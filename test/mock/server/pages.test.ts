/**
 * The hosted pages from plain HTTP (the browser test covers the clicks): unknown sessions, bad answers,
 * scores against the thresholds, and a session without a redirect URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type RunningServer, startServer } from './support.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

const post = (url: string, form: Record<string, string>) =>
  fetch(url, { method: 'POST', body: new URLSearchParams(form), redirect: 'manual' });

describe('hosted pages over HTTP', () => {
  it('3.2: an unknown session answers a 404 page saying to start a new one', async () => {
    const answer = await fetch(`${server.url}/__pages/digilocker/dlk_nobody`);
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toContain('text/html');
    expect(await answer.text()).toContain('Start a new one with the init endpoint');
    expect((await fetch(`${server.url}/__pages/elsewhere/x`)).status).toBe(404);
  });

  it('4.4: without a redirectUrl the approval ends on a page saying it is done', async () => {
    const userId = await createUser(server);
    const init = await server.call('POST', `/v2/users/${userId}/kyc/digilocker/init`, {});
    const { url } = init.body.data as { url: string };
    expect((await post(url, { outcome: 'maybe' })).status).toBe(400);
    const done = await post(url, { outcome: 'approve' });
    expect(done.status).toBe(200);
    const text = await done.text();
    expect(text).toContain('You shared your Aadhaar and PAN');
    expect(text).toContain('You can close this page');
    // Reloading the finished page says what happened, as a 200, with no buttons left.
    const reload = await fetch(url);
    expect(reload.status).toBe(200);
    const again = await reload.text();
    expect(again).toContain('You shared your Aadhaar and PAN');
    expect(again).not.toContain('<button');
  });

  it('4.9: scores that are not numbers from 0 to 1 are refused with a message, and the session stays open', async () => {
    const userId = await createUser(server, '9876508888');
    const init = await server.call('POST', `/v2/users/${userId}/kyc/face/init`, {
      redirectUrl: 'https://partner.example/face',
    });
    const { sessionId, url } = init.body.data as { sessionId: string; url: string };
    for (const livenessScore of ['abc', '1.5', '-0.2', '0x1', 'Infinity']) {
      const answer = await post(url, { outcome: 'pass', livenessScore });
      expect(answer.status, livenessScore).toBe(400);
      expect(await answer.text()).toContain('The liveness score must be a number from 0 to 1');
    }
    const bad = await post(url, { outcome: 'fail', faceMatchScore: 'high' });
    expect(await bad.text()).toContain('The face match score must be a number from 0 to 1');
    // Nothing was recorded: the page still asks, and a valid answer then goes through.
    expect(await (await fetch(url)).text()).toContain('<button');
    const passed = await post(url, { outcome: 'pass', livenessScore: '0.85', faceMatchScore: '.75' });
    expect(passed.status).toBe(303);
    expect(new URL(passed.headers.get('location') ?? '').searchParams.get('status')).toBe('PASSED');
    expect(await (await fetch(url)).text()).toContain('Your face check is done');
    expect(sessionId).toMatch(/^fce_/);
  });

  it('4.9: the face form redirects with FAILED on fail, and refuses a pass with scores under the thresholds', async () => {
    const userId = await createUser(server, '9876509999');
    const init = await server.call('POST', `/v2/users/${userId}/kyc/face/init`, {
      redirectUrl: 'https://partner.example/face?from=mock',
    });
    const { sessionId, url } = init.body.data as { sessionId: string; url: string };
    const low = await post(url, { outcome: 'pass', livenessScore: '0.5', faceMatchScore: '0.9' });
    expect(low.status).toBe(400);
    expect(await low.text()).toMatch(/fail the thresholds \(liveness &#62;= 0.8/);
    const failed = await post(url, { outcome: 'fail' });
    expect(failed.status).toBe(303);
    const location = new URL(failed.headers.get('location') ?? '');
    expect(location.origin + location.pathname).toBe('https://partner.example/face');
    expect(Object.fromEntries(location.searchParams)).toEqual({ from: 'mock', status: 'FAILED', sessionId });
  });
});
