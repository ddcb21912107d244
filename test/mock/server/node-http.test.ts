/**
 * The node:http ↔ fetch bridge: binary bodies both ways, repeated request headers, repeated `set-cookie`,
 * the client-IP header taken from the socket, and a network-error response as a dropped connection.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Answer } from '../../../mock/engine/exchange.js';
import { jsonText } from '../../../mock/engine/respond.js';
import { readBody, toRequest, writeAnswer } from '../../../mock/server/node-http.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server that answers each request with `answer(request)` (a `Response`, or one with its body's text). */
async function serve(
  answer: (request: Request) => Promise<Response | Pick<Answer, 'response' | 'text'>>,
): Promise<string> {
  const created = createServer(async (req, res) => {
    const body = await readBody(req);
    const answered = await answer(toRequest(req, `http://mock.test${req.url}`, body));
    await writeAnswer(res, answered instanceof Response ? answered : answered.response);
  });
  server = created;
  await new Promise<void>((resolve) => created.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(created.address() as AddressInfo).port}`;
}

describe('node:http bridge', () => {
  it('a binary body arrives byte for byte and a binary answer goes back byte for byte', async () => {
    const bytes = new Uint8Array(256).map((_, i) => i);
    const url = await serve(async (request) => {
      const received = new Uint8Array(await request.arrayBuffer());
      return new Response(received.slice().reverse(), {
        headers: { 'content-type': 'application/octet-stream' },
      });
    });
    const answer = await fetch(`${url}/__uploads/key`, { method: 'PUT', body: bytes });
    expect(new Uint8Array(await answer.arrayBuffer())).toEqual(bytes.slice().reverse());
  });

  it('repeated request headers are joined, repeated set-cookie answers stay separate', async () => {
    const url = await serve(async (request) => {
      const headers = new Headers({ 'x-seen': request.headers.get('x-multi') ?? '' });
      headers.append('set-cookie', 'a=1');
      headers.append('set-cookie', 'b=2');
      return new Response('ok', { headers });
    });
    const { seen, cookies } = await new Promise<{ seen: unknown; cookies: unknown }>((resolve, reject) => {
      const req = httpRequest(`${url}/x`, (res) => {
        res.resume();
        resolve({ seen: res.headers['x-seen'], cookies: res.headers['set-cookie'] });
      });
      req.on('error', reject);
      req.setHeader('x-multi', ['one', 'two']);
      req.end();
    });
    expect(seen).toBe('one, two');
    expect(cookies).toEqual(['a=1', 'b=2']);
  });

  it('a JSON answer goes out as the text it was built from, its length counted in bytes', async () => {
    const text = '{"name":"Ānanya Rāo ₹","note":"✓"}';
    const url = await serve(async () => ({ response: jsonText(201, text, { 'X-Extra': 'yes' }), text }));
    const answer = await fetch(url);
    expect(answer.status).toBe(201);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.get('x-extra')).toBe('yes');
    expect(answer.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect(await answer.text()).toBe(text);
  });

  it('5.5: the client-IP header comes from the socket, never from the client', async () => {
    const url = await serve(async (request) => new Response(request.headers.get('x-mock-client-ip')));
    const answer = await fetch(url, { headers: { 'x-mock-client-ip': '203.0.113.7' } });
    expect(await answer.text()).toBe('127.0.0.1');
  });

  it('a network-error response destroys the connection', async () => {
    const url = await serve(async () => Response.error());
    await expect(fetch(url)).rejects.toThrow();
  });
});
