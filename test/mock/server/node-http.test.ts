import { createServer, request as httpRequest, IncomingMessage, type Server } from 'node:http';
import { type AddressInfo, Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, Exchange } from '../../../mock/engine/exchange.js';
import { jsonText } from '../../../mock/engine/respond.js';
import { readBody, toRequest, writeAnswer } from '../../../mock/server/node-http.js';
import { type RunningMockServer, startMockServer } from '../../../mock/server/server.js';

/**
 * The node:http ↔ fetch bridge: binary bodies both ways, repeated request headers, repeated `set-cookie`,
 * the client-IP header taken from the socket, and a network-error response as a dropped connection.
 */

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

/**
 * The standalone server hands dispatch a fetch `Request` made from node's request: its headers read as fetch's
 * `Headers` reads them (joined, `set-cookie` apart, in name order), its body byte for byte from node's pooled
 * buffers, and the exchange over it reads the same headers, body and query.
 */

const RAW = [
  'Authorization',
  'Bearer pk_sandbox_1',
  'X-Multi',
  'one',
  'x-multi',
  ' two ',
  'Cookie',
  'a=1',
  'cookie',
  'b=2',
  'Set-Cookie',
  's=1',
  'set-cookie',
  't=2',
  'Accept',
  'application/json',
];

const pairs = (raw: readonly string[]): [string, string][] => {
  const out: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) out.push([raw[i] ?? '', raw[i + 1] ?? '']);
  return out;
};

/** A node request as `node:http` hands one to the server, from no socket of its own. */
function nodeRequest(method: string, raw: string[]): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  req.method = method;
  req.rawHeaders = raw;
  return req;
}

describe('the request the server makes of node’s', () => {
  it('reads its headers as fetch Headers: lower case, joined, set-cookie apart, in name order', () => {
    const request = toRequest(nodeRequest('GET', RAW), 'http://127.0.0.1:4010/v2/account', Buffer.alloc(0));
    const fetched = new Headers(pairs(RAW));
    const seen = [...request.headers].filter(([name]) => name !== 'x-mock-client-ip');
    expect(seen).toEqual([...fetched]);
    for (const name of ['authorization', 'X-MULTI', 'cookie', 'set-cookie', 'accept', 'absent'])
      expect(request.headers.get(name)).toBe(fetched.get(name));
  });

  it('an exchange over it reads its headers, body and query', async () => {
    const body = new TextEncoder().encode('{"userId":"usr_1","note":"₹ ✓"}');
    // A slice of a larger buffer, as node's pooled buffers are: only the request's bytes are read.
    const pooled = Buffer.alloc(body.byteLength + 8);
    pooled.set(body, 4);
    const url = 'http://127.0.0.1:4010/v2/users?x=1';
    const request = toRequest(nodeRequest('POST', RAW), url, pooled.subarray(4, 4 + body.byteLength));
    const exchange = new Exchange(request, '/v2/users');
    expect(exchange.header('x-multi')).toBe('one, two');
    expect(exchange.hasBody).toBe(true);
    expect(new Uint8Array(await exchange.bytes())).toEqual(body);
    expect(exchange.text).toBe('{"userId":"usr_1","note":"₹ ✓"}');
    expect(exchange.query).toEqual({ x: '1' });
    expect(exchange.request).toBe(request);
    expect(request.method).toBe('POST');
    expect(request.url).toBe(url);
  });

  it('a GET carries no body, whatever bytes came with it', async () => {
    const request = toRequest(nodeRequest('GET', []), 'http://127.0.0.1:4010/v2/account', Buffer.alloc(3));
    const exchange = new Exchange(request, '/v2/account');
    expect(exchange.hasBody).toBe(false);
    expect((await exchange.bytes()).byteLength).toBe(0);
    expect(exchange.request.body).toBeNull();
  });
});
