import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockServer, startMockServer } from '../../../mock/server/server.js';

describe('the body size limit, at a started server', () => {
  /**
   * The standalone server answers every client mistake with a 4xx the client can read: JSON nested past the
   * mock's depth limit is a 400 that says so (never a 500 "Maximum call stack size exceeded"), and a 50 MB chunked
   * body gets a 413 read by the client that was still sending it (never a connection closed with no answer).
   */

  let server: RunningMockServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0, service: { seed: 'bad-input' } });
  });
  afterAll(() => server.close());

  const post = async (path: string, text: string, key?: string) => {
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${server.service.sandboxKey}`,
        'Content-Type': 'application/json',
        ...(key ? { 'Idempotency-Key': key } : {}),
      },
      body: text,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  /** Sends `bytes` of body in 1 MB chunks (chunked framing) and resolves with the answer, or rejects. */
  function sendChunked(bytes: number): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(`${server.url}/v2/users`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${server.service.sandboxKey}` },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        res.on('error', reject);
      });
      req.on('error', reject);
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const more = () => {
        while (sent < bytes) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', more);
        }
        req.end();
      };
      more();
    });
  }

  describe('a body over the size limit', () => {
    it('50 MB chunked: a 413 the client reads, every time (three times)', async () => {
      for (let i = 0; i < 3; i++) {
        const answer = await sendChunked(50 * 1024 * 1024);
        expect(answer.status).toBe(413);
        expect(JSON.parse(answer.text)).toMatchObject({ error: 'Payload Too Large' });
        expect(answer.text).toMatch(/over \d+ bytes: send at most/);
      }
      // The server serves on.
      expect((await post('/v2/users', JSON.stringify({ mobile: '9876500003' }))).status).toBe(201);
    });
  });
});
