/**
 * Memory bounded by design: the standalone server with a 128 MB heap answers 10,000 requests with 1 MB bodies
 * (before the byte budgets, 256 MB was gone after 129), and still hands back its replay bundle afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loop, type ServerProcess, send, startServerProcess } from './server-process.js';

const REQUESTS = 10_000;
const BODY = Buffer.from(JSON.stringify({ mobile: 'not a mobile', note: 'x'.repeat(1024 * 1024) }));

let server: ServerProcess;
beforeAll(async () => {
  server = await startServerProcess(['--max-old-space-size=128']);
});
afterAll(() => server?.stop());

describe('a server with --max-old-space-size=128', () => {
  it('answers 10,000 requests with 1 MB bodies, then its bundle and journal, within its budgets', async () => {
    expect(BODY.byteLength).toBeGreaterThanOrEqual(1024 * 1024);
    const statuses = new Map<number, number>();
    const headers = {
      authorization: `Bearer ${server.key}`,
      'content-type': 'application/json',
      'content-length': String(BODY.byteLength),
    };
    const sent = await loop(4, REQUESTS, async () => {
      // A user that is not valid: refused (400, or 429 past the rate limit), nothing stored.
      const status = await send(server.url, 'POST', '/v2/users', headers, BODY);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    });
    expect(sent).toBe(REQUESTS);
    expect([...statuses.keys()].sort()).toEqual(expect.arrayContaining([400]));
    for (const status of statuses.keys()) expect([400, 429]).toContain(status);
    expect(server.child.exitCode).toBeNull();

    // The bundle holds the newest steps within the recording's 16 MiB and says where its window starts.
    const answer = await fetch(`${server.url}/__mock/bundle`, { method: 'POST' });
    expect(answer.status).toBe(200);
    const { data } = (await answer.json()) as {
      data: { steps: unknown[]; window?: { startsAtStep: number; reason: string } };
    };
    expect(data.window?.reason).toMatch(/past its budget of 16777216 bytes/);
    // The window holds the newest steps: the run had the requests and the real-time clock's ticks between them.
    expect(data.window?.startsAtStep).toBeGreaterThan(0);
    expect((data.window?.startsAtStep ?? 0) + data.steps.length).toBeGreaterThanOrEqual(REQUESTS);
    expect(data.steps).toContainEqual(expect.objectContaining({ type: 'request', path: '/v2/users' }));
    expect(JSON.stringify(data).length).toBeLessThan(16 * 1024 * 1024 * 1.1);
    const journal = (await (await fetch(`${server.url}/__mock/journal`)).json()) as {
      data: { seq: number }[];
    };
    expect(journal.data.at(-1)?.seq).toBeGreaterThanOrEqual(REQUESTS);
    expect(server.child.exitCode).toBeNull();
  });
});
