import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { mockServerForTests, postText } from './support.js';

describe('the body size limit, at a started server', () => {
  /**
   * A body over the size limit is a 4xx the client can read: a 50 MB chunked body gets a 413 read by the client
   * that was still sending it (never a connection closed with no answer). JSON nested past the depth limit:
   * test/mock/engine/json-depth.test.ts.
   */

  const server = mockServerForTests({ port: 0, service: { seed: 'bad-input' } });

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
      expect((await postText(server, '/v2/users', JSON.stringify({ mobile: '9876500003' }))).status).toBe(
        201,
      );
    });
  });
});
