/**
 * `GET /__mock/health`: what a container's health check and a test harness's wait strategy ask. It answers under
 * any host (another container names the mock by its service name), and leaves no trace: nothing journalled,
 * nothing recorded for a replay, however often a health check asks.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from './support.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

/** A GET with the Host another container would send. */
function getAs(host: string, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(server.origin);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('GET /__mock/health', () => {
  it('answers 200 serving, under another host than the helpers accept', async () => {
    const answer = await getAs('mock:4010', '/__mock/health');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ success: true, data: { status: 'serving' } });
    // The helpers themselves still answer only under a loopback host.
    expect((await getAs('mock:4010', '/__mock/clock/now')).status).toBe(403);
    expect((await fetch(`${server.origin}/__mock/health`, { method: 'POST' })).status).toBe(405);
  });

  it('is neither journalled nor recorded', async () => {
    const steps = async () =>
      ((await server.helper('bundle')).body.data as { steps: unknown[] }).steps.length;
    const journal = async () =>
      ((await fetch(`${server.origin}/__mock/journal`).then((r) => r.json())) as { data: unknown[] }).data
        .length;
    const [stepsBefore, journalBefore] = [await steps(), await journal()];
    for (let i = 0; i < 5; i += 1) expect((await fetch(`${server.origin}/__mock/health`)).status).toBe(200);
    expect(await steps()).toBe(stepsBefore);
    expect(await journal()).toBe(journalBefore);
    // What the counts would show of a request that is journalled and recorded: an API call.
    await server.call('GET', '/v2/webhooks');
    expect(await journal()).toBe(journalBefore + 1);
  });
});
